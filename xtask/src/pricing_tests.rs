use serde_json::json;

use super::*;

#[test]
fn the_snapshot_keeps_priced_chat_models_of_openai_and_azure_and_their_prices() -> Result<()> {
    let litellm = json!({
        "sample_spec": {"litellm_provider": "one of …", "mode": "chat"},
        "gpt-x": {"litellm_provider": "openai", "mode": "chat", "input_cost_per_token": 1e-6,
                  "cache_read_input_token_cost": 1e-7, "output_cost_per_token": 8e-6,
                  "max_tokens": 1000, "supports_vision": true},
        "azure/gpt-x": {"litellm_provider": "azure", "mode": "responses",
                        "input_cost_per_token": 1e-6, "output_cost_per_token": 8e-6},
        "dall-e": {"litellm_provider": "openai", "mode": "image_generation",
                   "input_cost_per_token": 1e-6, "output_cost_per_token": 8e-6},
        "claude": {"litellm_provider": "anthropic", "mode": "chat",
                   "input_cost_per_token": 1e-6, "output_cost_per_token": 8e-6},
        "gpt-free": {"litellm_provider": "openai", "mode": "chat"}
    });
    let text = snapshot(&litellm, "1.2.3", "2026-12-04")?;
    let value: Value = serde_json::from_str(&text)?;
    let names: Vec<&String> = value
        .as_object()
        .map(|map| map.keys().collect())
        .unwrap_or_default();
    assert_eq!(names, ["_snapshot", "azure/gpt-x", "gpt-x"]);
    assert_eq!(value["_snapshot"]["date"], "2026-12-04");
    assert_eq!(value["_snapshot"]["litellm_version"], "1.2.3");
    assert_eq!(
        value["gpt-x"],
        json!({"litellm_provider": "openai", "input_cost_per_token": 1e-6,
               "cache_read_input_token_cost": 1e-7, "output_cost_per_token": 8e-6})
    );
    assert_eq!(text.lines().count(), 5, "one model a line:\n{text}");
    Ok(())
}

#[test]
fn a_file_with_no_model_kept_is_refused() {
    assert!(
        snapshot(
            &json!({"claude": {"litellm_provider": "anthropic"}}),
            "1",
            "d"
        )
        .is_err()
    );
    assert!(snapshot(&json!([1]), "1", "d").is_err());
}
