//! What tokens cost: prices per model, kept as data (`home/data/pricing.json`, embedded in
//! the crate) so that a price change is a data change with its date and source, replaceable by
//! a table of the same shape (`codex-thread usage --pricing FILE`).
//!
//! A cost is `uncached input × input + cached input × cached_input + output × output`, per
//! million tokens (reasoning is output). A model missing from the table has no cost: it is
//! listed as unpriced, never matched to a similar name.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::usage::{Tally, Tokens};

/// The table shipped with the crate.
const BUNDLED_PRICING: &str = include_str!("../data/pricing.json");

/// Why a price table cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PricingError {
    /// The file could not be read.
    #[error("cannot read pricing {}: {source}", .path.display())]
    Unreadable {
        /// The file.
        path: std::path::PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// The text is not a price table, or a price is not a non-negative number.
    #[error("{name}{problem}")]
    Invalid {
        /// The table (`the bundled pricing table`, or `pricing FILE`).
        name: String,
        /// What is wrong, as the rest of the sentence.
        problem: String,
    },
}

/// One model's prices, USD per million tokens.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Price {
    /// Uncached input.
    pub input: f64,
    /// Input served from the prompt cache.
    pub cached_input: f64,
    /// Output, reasoning included.
    pub output: f64,
    /// When the price was read (`YYYY-MM-DD`).
    pub date: String,
    /// Where it was read.
    pub source: String,
}

impl Price {
    /// The cost of `tokens` in USD.
    pub fn cost(&self, tokens: &Tokens) -> f64 {
        (tokens.uncached_input_tokens() as f64 * self.input
            + tokens.cached_input_tokens as f64 * self.cached_input
            + tokens.output_tokens as f64 * self.output)
            / 1_000_000.0
    }
}

/// A price table: model name (exactly as session files write it) to its prices.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Pricing {
    /// The prices.
    pub models: BTreeMap<String, Price>,
}

impl Pricing {
    /// The bundled table.
    pub fn bundled() -> Result<Self, PricingError> {
        Self::parse(BUNDLED_PRICING, "the bundled pricing table")
    }

    /// The table in `path` (same shape as the bundled one).
    pub fn from_file(path: &Path) -> Result<Self, PricingError> {
        let text = std::fs::read_to_string(path).map_err(|source| PricingError::Unreadable {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, &format!("pricing {}", path.display()))
    }

    fn parse(text: &str, name: &str) -> Result<Self, PricingError> {
        let invalid = |problem: String| PricingError::Invalid {
            name: name.to_string(),
            problem,
        };
        let pricing: Pricing = serde_json::from_str(text).map_err(|err| {
            invalid(format!(
                " is not a pricing table ({err}); expected \
                 {{\"models\": {{NAME: {{\"input\", \"cached_input\", \"output\", \"date\", \"source\"}}}}}}"
            ))
        })?;
        for (model, price) in &pricing.models {
            let prices = [price.input, price.cached_input, price.output];
            if prices
                .iter()
                .any(|price| !price.is_finite() || *price < 0.0)
            {
                return Err(invalid(format!(
                    ": the prices of {model} must be non-negative numbers"
                )));
            }
        }
        Ok(pricing)
    }

    /// The cost of `tokens` of `model`; `None` when the model has no price.
    pub fn cost(&self, model: &str, tokens: &Tokens) -> Option<f64> {
        self.models.get(model).map(|price| price.cost(tokens))
    }

    /// The cost of a tally: the sum over its priced models; `None` when none is priced.
    pub fn tally_cost(&self, tally: &Tally) -> Option<f64> {
        let costs: Vec<f64> = tally
            .models
            .iter()
            .filter_map(|(model, tokens)| self.cost(model, tokens))
            .collect();
        (!costs.is_empty()).then(|| costs.iter().sum())
    }

    /// Whether `model` has a price.
    pub fn prices(&self, model: &str) -> bool {
        self.models.contains_key(model)
    }
}

#[cfg(test)]
#[path = "pricing_tests.rs"]
mod tests;
