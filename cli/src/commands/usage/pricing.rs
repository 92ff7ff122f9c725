//! Prices per model, kept as data (`cli/data/pricing.json`, embedded in the binary) so that a
//! price change is a data change with its date and source, and replaceable with `--pricing`.
//!
//! A cost is `uncached input × input + cached input × cached_input + output × output`, per
//! million tokens (reasoning is output). A model missing from the table has no cost: it is
//! listed as unpriced, never matched to a similar name.

use std::collections::BTreeMap;
use std::path::Path;

use codex_home::Tokens;
use serde::Deserialize;

use crate::error::Failure;

/// The table shipped with the binary.
pub const BUNDLED_PRICING: &str = include_str!("../../../data/pricing.json");

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
    pub fn bundled() -> Result<Self, Failure> {
        Self::parse(BUNDLED_PRICING, "the bundled pricing table")
    }

    /// The table in `path` (same shape as the bundled one).
    pub fn from_file(path: &Path) -> Result<Self, Failure> {
        let text = std::fs::read_to_string(path).map_err(|err| {
            Failure::Unreadable(format!("cannot read pricing {}: {err}", path.display()))
        })?;
        Self::parse(&text, &format!("pricing {}", path.display()))
    }

    fn parse(text: &str, name: &str) -> Result<Self, Failure> {
        let pricing: Pricing = serde_json::from_str(text).map_err(|err| {
            Failure::Usage(format!(
                "{name} is not a pricing table ({err}); expected \
                 {{\"models\": {{NAME: {{\"input\", \"cached_input\", \"output\", \"date\", \"source\"}}}}}}"
            ))
        })?;
        for (model, price) in &pricing.models {
            let prices = [price.input, price.cached_input, price.output];
            if prices
                .iter()
                .any(|price| !price.is_finite() || *price < 0.0)
            {
                return Err(Failure::Usage(format!(
                    "{name}: the prices of {model} must be non-negative numbers"
                )));
            }
        }
        Ok(pricing)
    }

    /// The cost of `tokens` of `model`; `None` when the model has no price.
    pub fn cost(&self, model: &str, tokens: &Tokens) -> Option<f64> {
        self.models.get(model).map(|price| price.cost(tokens))
    }
}
