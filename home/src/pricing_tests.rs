use std::collections::BTreeMap;

use super::*;

fn table(json: &str) -> Result<Pricing, PricingError> {
    Pricing::parse(json, "pricing test.json")
}

#[test]
fn the_bundled_table_parses_and_prices_by_exact_name() -> Result<(), PricingError> {
    let pricing = Pricing::bundled()?;
    assert!(!pricing.models.is_empty());
    let (model, _) = pricing
        .models
        .iter()
        .next()
        .ok_or_else(|| PricingError::Invalid {
            name: "bundled".to_string(),
            problem: " is empty".to_string(),
        })?;
    assert!(pricing.prices(model));
    assert!(!pricing.prices(&format!("{model}-similar")));
    Ok(())
}

#[test]
fn a_tally_costs_its_priced_models_only() -> Result<(), PricingError> {
    let pricing = table(
        r#"{"models": {"m": {"input": 2.0, "cached_input": 0.5, "output": 8.0, "date": "2026-01-01", "source": "test"}}}"#,
    )?;
    // 1M input of which 400k cached, 100k output: 0.6 × 2 + 0.4 × 0.5 + 0.1 × 8 = 2.2 USD.
    let tokens = Tokens::new(1_000_000, 400_000, 100_000, 0);
    let mut models = BTreeMap::new();
    models.insert("m".to_string(), tokens);
    models.insert("unpriced".to_string(), tokens);
    let tally = Tally { tokens, models };
    let cost = pricing.tally_cost(&tally).unwrap_or_default();
    assert!((cost - 2.2).abs() < 1e-9, "{cost}");
    let nothing_priced = Tally {
        tokens: Tokens::default(),
        models: BTreeMap::from([("unpriced".to_string(), Tokens::default())]),
    };
    assert_eq!(pricing.tally_cost(&nothing_priced), None);
    Ok(())
}

#[test]
fn a_negative_price_or_another_shape_is_refused_naming_the_table() {
    let negative = table(
        r#"{"models": {"m": {"input": -1.0, "cached_input": 0.5, "output": 8.0, "date": "d", "source": "s"}}}"#,
    );
    assert!(matches!(&negative, Err(PricingError::Invalid { .. })));
    let text = negative
        .map(|_| ())
        .err()
        .map(|err| err.to_string())
        .unwrap_or_default();
    assert_eq!(
        text,
        "pricing test.json: the prices of m must be non-negative numbers"
    );
    let shape = table(r#"{"m": 1}"#)
        .map(|_| ())
        .err()
        .map(|err| err.to_string());
    assert!(shape.is_some_and(|text| text.starts_with("pricing test.json is not a pricing table")));
}
