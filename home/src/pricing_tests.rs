use std::collections::BTreeMap;

use super::*;

fn table(json: &str) -> Result<Pricing, PricingError> {
    Pricing::parse(json, "pricing test.json")
}

#[test]
fn the_bundled_snapshot_prices_the_models_codex_ships_and_says_where_it_is_from()
-> Result<(), PricingError> {
    let pricing = Pricing::bundled()?;
    let snapshot = pricing.snapshot.clone().unwrap_or(Snapshot {
        date: String::new(),
        litellm_version: String::new(),
    });
    assert_eq!(snapshot.date.len(), "2026-12-04".len());
    assert!(!snapshot.litellm_version.is_empty());
    for model in [
        "gpt-5.4",
        "gpt-5.4-mini",
        "gpt-5.2-codex",
        "gpt-5.6-terra",
        "gpt-5-1-codex-2025-11-13",
        "openai/gpt-5.4",
        "azure/gpt-5.4",
    ] {
        assert!(pricing.prices(model), "{model}");
    }
    // gpt-5.4 in LiteLLM 1.110.2: $2.50 input, $0.25 cached, $15 output per million.
    let price = pricing.price("openai/gpt-5.4").cloned();
    let cost = price.map(|price| price.cost(&Tokens::new(1_000_000, 400_000, 100_000, 0)));
    let expected = 0.6 * 2.5 + 0.4 * 0.25 + 0.1 * 15.0;
    assert!(
        cost.is_some_and(|cost| (cost - expected).abs() < 1e-9),
        "{cost:?}"
    );
    assert!(!pricing.prices("gpt-5.4-similar"));
    assert_eq!(
        pricing.price("gpt-5-1-codex-2025-11-13"),
        pricing.price("gpt-5.1-codex")
    );
    Ok(())
}

#[test]
fn a_litellm_file_prices_per_token_and_a_missing_cached_price_is_the_input_price()
-> Result<(), PricingError> {
    let pricing = table(
        r#"{"sample_spec": {"mode": "chat"},
            "m": {"input_cost_per_token": 2e-6, "output_cost_per_token": 8e-6},
            "image": {"output_cost_per_image": 0.04}}"#,
    )?;
    assert_eq!(pricing.models.len(), 1);
    assert_eq!(pricing.snapshot, None);
    let cost = pricing.cost("m", &Tokens::new(1_000_000, 400_000, 0, 0));
    assert!(
        cost.is_some_and(|cost| (cost - 2.0).abs() < 1e-9),
        "{cost:?}"
    );
    Ok(())
}

#[test]
fn a_tally_costs_its_priced_models_and_counts_the_tokens_it_leaves_out() -> Result<(), PricingError>
{
    let pricing =
        table(r#"{"models": {"m": {"input": 2.0, "cached_input": 0.5, "output": 8.0}}}"#)?;
    // 1M input of which 400k cached, 100k output: 0.6 × 2 + 0.4 × 0.5 + 0.1 × 8 = 2.2 USD.
    let tokens = Tokens::new(1_000_000, 400_000, 100_000, 0);
    let mut models = BTreeMap::new();
    models.insert("m".to_string(), tokens);
    models.insert("unpriced".to_string(), tokens);
    let tally = Tally { tokens, models };
    let cost = pricing.tally_cost(&tally);
    assert!(
        cost.usd.is_some_and(|usd| (usd - 2.2).abs() < 1e-9),
        "{cost:?}"
    );
    assert_eq!(cost.unpriced_tokens, 1_100_000);
    assert!(!cost.complete());
    let priced = pricing.model_cost("m", &tokens);
    assert!(priced.complete() && priced.usd == pricing.cost("m", &tokens));
    assert_eq!(
        pricing.model_cost("unpriced", &tokens),
        TallyCost {
            usd: None,
            unpriced_tokens: 1_100_000
        }
    );
    let nothing_priced = Tally {
        tokens: Tokens::default(),
        models: BTreeMap::from([("unpriced".to_string(), Tokens::new(5, 0, 5, 0))]),
    };
    assert_eq!(
        pricing.tally_cost(&nothing_priced),
        TallyCost {
            usd: None,
            unpriced_tokens: 10
        }
    );
    Ok(())
}

#[test]
fn a_negative_price_or_another_shape_is_refused_naming_the_table() {
    let negative =
        table(r#"{"models": {"m": {"input": -1.0, "cached_input": 0.5, "output": 8.0}}}"#);
    let text = negative
        .map(|_| ())
        .err()
        .map(|err| err.to_string())
        .unwrap_or_default();
    assert_eq!(
        text,
        "pricing test.json: the prices of m must be non-negative numbers"
    );
    for shape in [r#"{"m": 1}"#, "[1]", "{"] {
        let text = table(shape).map(|_| ()).err().map(|err| err.to_string());
        assert!(
            text.is_some_and(|text| text.starts_with("pricing test.json is not a pricing table")),
            "{shape}"
        );
    }
}
