use super::*;
use crate::contextual::DeveloperFragmentKind;
use crate::contextual::is_contextual_user_message_content;
use crate::turn_boundary::is_user_turn_boundary;
use codex_protocol::models::ContentItem;
use pretty_assertions::assert_eq;

fn sections(item: &ResponseItem) -> Vec<String> {
    item.message_content()
        .unwrap_or_default()
        .iter()
        .filter_map(|part| part.text().map(str::to_string))
        .collect()
}

fn extension_policy() -> ContextFragment {
    ContextFragment::text(
        PromptSlot::DeveloperPolicy,
        "Extension policy: never push to main.",
    )
}

fn inputs() -> InitialContextInputs {
    InitialContextInputs {
        developer_instructions: Some("Configured developer instructions.".to_string()),
        extension_fragments: vec![
            extension_policy(),
            ContextFragment::text(PromptSlot::DeveloperCapabilities, "You can browse the web."),
            ContextFragment::text(
                PromptSlot::SeparateDeveloper,
                "<multi_agent_role>worker</multi_agent_role>",
            ),
            ContextFragment::text(PromptSlot::ContextualUser, "Extension user context."),
        ],
        world_fragments: vec![
            ContextFragment::developer_marked(DeveloperFragmentKind::Permissions, "read-only"),
            ContextFragment::agents_md(Some("/repo"), "Do not delete tests."),
            ContextFragment::environment_context("\n  <cwd>/repo</cwd>\n"),
            ContextFragment::model_switch("Use the new model's tools."),
        ],
    }
}

#[test]
fn compiles_developer_bundle_separate_developer_and_contextual_user_in_order() {
    let items = compile_initial_context(&inputs(), "turn-1");
    let roles: Vec<_> = items.iter().filter_map(ResponseItem::role).collect();
    assert_eq!(roles, vec!["developer", "developer", "user"]);
    let bundle = sections(&items[0]);
    assert_eq!(bundle.len(), 5, "one input_text per section: {bundle:?}");
    assert_eq!(bundle[1], "Configured developer instructions.");
    assert_eq!(bundle[2], "Extension policy: never push to main.");
    assert_eq!(bundle[3], "You can browse the web.");
    assert!(bundle[4].starts_with("<permissions instructions>"));
    assert_eq!(
        sections(&items[1]),
        vec!["<multi_agent_role>worker</multi_agent_role>"]
    );
    let user = sections(&items[2]);
    assert_eq!(user[0], "Extension user context.");
    assert!(user[1].starts_with("# AGENTS.md instructions for /repo"));
    assert!(user[2].starts_with("<environment_context>"));
}

#[test]
fn model_switch_fragment_is_the_first_developer_section() {
    let items = compile_initial_context(&inputs(), "turn-1");
    let first = sections(&items[0]).remove(0);
    assert!(first.starts_with("<model_switch>"), "{first}");
}

#[test]
fn every_compiled_item_is_stamped_with_the_turn_id() {
    let items = compile_initial_context(&inputs(), "turn-7");
    assert!(items.iter().all(|item| item.turn_id() == Some("turn-7")));
    assert!(
        items.iter().all(|item| item.id().is_none()),
        "ids come at recording"
    );
}

#[test]
fn agents_md_is_contextual_user_not_a_turn_boundary() {
    let items = compile_initial_context(&inputs(), "turn-1");
    let user = &items[2];
    assert!(is_contextual_user_message_content(
        user.message_content().unwrap_or_default()
    ));
    assert!(!is_user_turn_boundary(user));
}

#[test]
fn extension_policy_lands_in_the_developer_message_at_start_and_on_later_updates() {
    let start = compile_initial_context(
        &InitialContextInputs {
            extension_fragments: vec![extension_policy()],
            ..InitialContextInputs::default()
        },
        "turn-1",
    );
    assert_eq!(start.len(), 1);
    assert_eq!(start[0].role(), Some("developer"));
    assert_eq!(
        sections(&start[0]),
        vec!["Extension policy: never push to main."]
    );

    let update = compile_context_update(
        &[
            ContextFragment::environment_context("\n  <cwd>/other</cwd>\n"),
            extension_policy(),
        ],
        "turn-2",
    );
    let developer: Vec<_> = update
        .iter()
        .filter(|item| item.role() == Some("developer"))
        .collect();
    assert_eq!(developer.len(), 1);
    assert_eq!(
        sections(developer[0]),
        vec!["Extension policy: never push to main."]
    );
    assert!(update.iter().all(|item| item.turn_id() == Some("turn-2")));
}

#[test]
fn context_update_puts_model_switch_first_and_keeps_order() {
    let update = compile_context_update(
        &[
            ContextFragment::developer_marked(
                DeveloperFragmentKind::Permissions,
                "workspace-write",
            ),
            ContextFragment::model_switch("Switched."),
        ],
        "turn-3",
    );
    assert_eq!(update.len(), 1);
    let parts = sections(&update[0]);
    assert!(parts[0].starts_with("<model_switch>"));
    assert!(parts[1].starts_with("<permissions instructions>"));
}

#[test]
fn empty_inputs_compile_to_nothing() {
    let items = compile_initial_context(
        &InitialContextInputs {
            developer_instructions: Some(String::new()),
            ..InitialContextInputs::default()
        },
        "turn-1",
    );
    assert!(items.is_empty());
}

#[test]
fn separate_user_fragments_follow_the_contextual_user_message() {
    let items = compile_initial_context(
        &InitialContextInputs {
            world_fragments: vec![
                ContextFragment::turn_aborted().separate(),
                ContextFragment::environment_context("\n"),
            ],
            ..InitialContextInputs::default()
        },
        "t",
    );
    let texts: Vec<Vec<String>> = items.iter().map(sections).collect();
    assert_eq!(texts.len(), 2);
    assert!(texts[0][0].starts_with("<environment_context>"));
    assert!(texts[1][0].starts_with("<turn_aborted>"));
    assert!(matches!(
        items[1].message_content(),
        Some([ContentItem::InputText { .. }])
    ));
}
