//! What tokens cost: prices per model, kept as data so that a price change is a data change.
//!
//! The bundled table (`home/data/litellm_prices.json`, embedded in the crate) is a snapshot of
//! LiteLLM's model price data, the table ccusage prices with, cut by `cargo xtask pricing` to
//! the models of the providers Codex talks to; its `_snapshot` entry says the day it was made
//! and the LiteLLM version ([`Snapshot`]). `codex-thread usage --pricing FILE` replaces it by
//! another table: a LiteLLM file (any version, whole or cut) or the per-million shape
//! `{"models": {NAME: {"input", "cached_input", "output"}}}`.
//!
//! A cost is `uncached input × input + cached input × cached_input + output × output`, per
//! million tokens (reasoning is output; LiteLLM's per-token prices are read ×10⁶, and a model
//! without a cached price pays its input price for cached input, as ccusage does). A model is
//! found by its name as the session file writes it, else by the names it is an alias of
//! ([`names::candidates`]: a provider prefix, a `-YYYY-MM-DD` suffix, `5-1` for `5.1`); a
//! model still not found has no price: it is reported as unpriced, and a cost that leaves its
//! tokens out says so ([`TallyCost`]).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::usage::{Tally, Tokens};

mod names;

/// The table shipped with the crate.
const BUNDLED_PRICING: &str = include_str!("../data/litellm_prices.json");

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

/// Where a LiteLLM table came from: its `_snapshot` entry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Snapshot {
    /// The day it was made (`YYYY-MM-DD`).
    pub date: String,
    /// The LiteLLM version it was taken from.
    pub litellm_version: String,
}

/// The cost of a tally, and what it leaves out.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TallyCost {
    /// The cost of the priced models; `None` when no model of the tally is priced.
    pub usd: Option<f64>,
    /// Tokens of models that have no price, left out of `usd`.
    pub unpriced_tokens: u64,
}

impl TallyCost {
    /// Whether every token was priced.
    pub fn complete(&self) -> bool {
        self.unpriced_tokens == 0
    }
}

/// A price table: model name to its prices.
#[derive(Debug, Clone, PartialEq)]
pub struct Pricing {
    /// The prices, by the names the table gives.
    pub models: BTreeMap<String, Price>,
    /// Where the table came from, when it says (the bundled one does).
    pub snapshot: Option<Snapshot>,
}

/// The per-million shape of a table given with `--pricing`.
#[derive(Deserialize)]
struct PerMillion {
    models: BTreeMap<String, Price>,
}

impl Pricing {
    /// The bundled table.
    pub fn bundled() -> Result<Self, PricingError> {
        Self::parse(BUNDLED_PRICING, "the bundled pricing table")
    }

    /// The table in `path`: a LiteLLM price file, or the per-million shape.
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
        let expected = "expected LiteLLM's model_prices_and_context_window.json or \
                        {\"models\": {NAME: {\"input\", \"cached_input\", \"output\"}}}";
        let value: Value = serde_json::from_str(text)
            .map_err(|err| invalid(format!(" is not a pricing table ({err}); {expected}")))?;
        let pricing = match value.get("models") {
            Some(_) => {
                let table: PerMillion = serde_json::from_value(value).map_err(|err| {
                    invalid(format!(" is not a pricing table ({err}); {expected}"))
                })?;
                Pricing {
                    models: table.models,
                    snapshot: None,
                }
            }
            None => litellm_table(&value)
                .ok_or_else(|| invalid(format!(" is not a pricing table; {expected}")))?,
        };
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

    /// The price of `model`: by its name, else by the first of its aliases the table has.
    pub fn price(&self, model: &str) -> Option<&Price> {
        names::candidates(model)
            .iter()
            .find_map(|name| self.models.get(name.as_str()))
    }

    /// The cost of `tokens` of `model`; `None` when the model has no price.
    pub fn cost(&self, model: &str, tokens: &Tokens) -> Option<f64> {
        self.price(model).map(|price| price.cost(tokens))
    }

    /// The cost of `tokens` of `model` as a tally's: priced, or all of them left out.
    pub fn model_cost(&self, model: &str, tokens: &Tokens) -> TallyCost {
        let usd = self.cost(model, tokens);
        let unpriced_tokens = if usd.is_some() {
            0
        } else {
            tokens.total_tokens
        };
        TallyCost {
            usd,
            unpriced_tokens,
        }
    }

    /// The cost of a tally: the sum over its priced models, and the tokens of the others.
    pub fn tally_cost(&self, tally: &Tally) -> TallyCost {
        let mut cost = TallyCost::default();
        for (model, tokens) in &tally.models {
            let model_cost = self.model_cost(model, tokens);
            if let Some(usd) = model_cost.usd {
                *cost.usd.get_or_insert(0.0) += usd;
            }
            cost.unpriced_tokens += model_cost.unpriced_tokens;
        }
        cost
    }

    /// Whether `model` has a price.
    pub fn prices(&self, model: &str) -> bool {
        self.price(model).is_some()
    }
}

/// A LiteLLM table (name to `{input_cost_per_token, output_cost_per_token,
/// cache_read_input_token_cost?, …}`), read into prices per million; entries without both
/// prices (LiteLLM's `sample_spec`, image or audio models) are passed over. `None` when the
/// value is not an object or nothing in it is priced.
fn litellm_table(value: &Value) -> Option<Pricing> {
    let entries = value.as_object()?;
    let snapshot = entries
        .get("_snapshot")
        .and_then(|snapshot| serde_json::from_value(snapshot.clone()).ok());
    let per_million = |entry: &Value, key: &str| {
        entry
            .get(key)
            .and_then(Value::as_f64)
            .map(|price| price * 1_000_000.0)
    };
    let models: BTreeMap<String, Price> = entries
        .iter()
        .filter_map(|(name, entry)| {
            let input = per_million(entry, "input_cost_per_token")?;
            let output = per_million(entry, "output_cost_per_token")?;
            let cached_input = per_million(entry, "cache_read_input_token_cost").unwrap_or(input);
            Some((
                name.clone(),
                Price {
                    input,
                    cached_input,
                    output,
                },
            ))
        })
        .collect();
    (!models.is_empty()).then_some(Pricing { models, snapshot })
}

#[cfg(test)]
#[path = "pricing_tests.rs"]
mod tests;
