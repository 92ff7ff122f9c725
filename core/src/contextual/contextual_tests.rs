use codex_protocol::items::HookPromptFragment;
use codex_protocol::models::ContentItem;
use pretty_assertions::assert_eq;
use proptest::prelude::*;

use super::registry::{DEVELOPER_PREFIXES, USER_FRAGMENTS};
use super::*;

fn text(value: &str) -> ContentItem {
    ContentItem::input_text(value)
}

fn user_contextual(value: &str) -> bool {
    is_contextual_user_message_content(&[text(value)])
}

#[test]
fn detects_environment_context_fragment() {
    assert!(user_contextual(
        "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>zsh</shell>\n</environment_context>"
    ));
    assert_eq!(
        match_user_fragment("<environment_context>x</environment_context>"),
        Some(UserFragmentKind::EnvironmentContext)
    );
}

#[test]
fn detects_skill_instructions_fragment_case_insensitively() {
    assert!(user_contextual(
        "  <SKILL>\n<name>demo</name>\n<path>skills/demo/SKILL.md</path>\nbody\n</SKILL>  "
    ));
}

#[test]
fn detects_agents_instructions_fragment() {
    assert!(user_contextual(
        "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nbe kind\n</INSTRUCTIONS>"
    ));
    assert!(user_contextual(
        "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nbe kind\n</INSTRUCTIONS>"
    ));
}

#[test]
fn detects_legacy_user_instructions_wrapper() {
    // Written by Codex before the AGENTS.md header existed (0.3x session files).
    assert_eq!(
        match_user_fragment(
            "<user_instructions>\n\n# path: AGENTS.md\nrules\n</user_instructions>"
        ),
        Some(UserFragmentKind::LegacyUserInstructions)
    );
}

#[test]
fn renders_agents_instructions_with_legacy_directory_header() {
    let fragment = ContextFragment::agents_md(Some("/repo"), "be kind");
    assert_eq!(
        fragment.render(),
        "# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nbe kind\n</INSTRUCTIONS>"
    );
    assert_eq!(fragment.role(), FragmentRole::User);
    assert!(user_contextual(fragment.render()));
}

#[test]
fn renders_agents_instructions_without_directory_header() {
    let fragment = ContextFragment::agents_md(None, "be kind");
    assert_eq!(
        fragment.render(),
        "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nbe kind\n</INSTRUCTIONS>"
    );
    assert!(user_contextual(fragment.render()));
}

#[test]
fn detects_subagent_notification_fragment_case_insensitively() {
    assert!(user_contextual(
        "<Subagent_Notification>\n{\"agent_path\":\"/root/a\",\"status\":\"completed\"}\n</SUBAGENT_NOTIFICATION>"
    ));
}

#[test]
fn detects_internal_model_context_fragment() -> Result<(), FragmentError> {
    let fragment = ContextFragment::internal_context("extension", "remember the goal")?;
    assert_eq!(
        fragment.render(),
        "<codex_internal_context source=\"extension\">\nremember the goal\n</codex_internal_context>"
    );
    assert_eq!(
        match_user_fragment(fragment.render()),
        Some(UserFragmentKind::InternalContext)
    );
    Ok(())
}

#[test]
fn detects_recommended_plugins_fragment() {
    assert!(user_contextual(
        "<recommended_plugins>\nHere is a list of plugins that are available but not installed.\n\n- Demo (demo@market)\n</recommended_plugins>"
    ));
}

#[test]
fn detects_legacy_goal_context_fragment() {
    assert_eq!(
        match_user_fragment("<goal_context>\nship it\n</goal_context>"),
        Some(UserFragmentKind::LegacyGoalContext)
    );
}

#[test]
fn does_not_hide_arbitrary_context_tags() {
    assert!(!user_contextual(
        "<project_context>\nmy own notes\n</project_context>"
    ));
    assert!(!user_contextual("<context>typed by a person</context>"));
}

#[test]
fn requires_a_complete_registered_marker_pair() {
    // An opening tag alone, or a closing tag alone, is something a person typed.
    assert!(!user_contextual(
        "<environment_context> what does this tag do?"
    ));
    assert!(!user_contextual(
        "why is there </environment_context> in my file"
    ));
    assert!(!user_contextual("please read </INSTRUCTIONS>"));
    // The markers must frame the whole text, not sit in the middle of it.
    assert!(!user_contextual(
        "see <environment_context>x</environment_context> above"
    ));
    // Just the two markers overlapping is not a fragment either.
    assert!(!user_contextual("<skill>"));
}

#[test]
fn rejects_invalid_internal_model_context_source() {
    assert!(!user_contextual(
        "<codex_internal_context source=\"Extension\">\nx\n</codex_internal_context>"
    ));
    assert!(!user_contextual(
        "<codex_internal_context source=\"\">\nx\n</codex_internal_context>"
    ));
    assert!(!user_contextual(
        "<codex_internal_context>\nx\n</codex_internal_context>"
    ));
    assert_eq!(
        ContextFragment::internal_context("Extension", "x"),
        Err(FragmentError::InvalidInternalContextSource(
            "Extension".to_string()
        ))
    );
}

#[test]
fn detects_external_additional_context_case_sensitively() {
    assert_eq!(
        match_user_fragment("<external_jira>TICKET-1</external_jira>"),
        Some(UserFragmentKind::ExternalContext)
    );
    assert!(!user_contextual("<external_jira>TICKET-1</external_slack>"));
    assert!(!user_contextual("<EXTERNAL_jira>TICKET-1</EXTERNAL_jira>"));
    assert!(!user_contextual("<external_>x</external_>"));
}

#[test]
fn detects_legacy_warnings_as_context() {
    assert!(user_contextual(
        "Warning: The maximum number of unified exec processes you can keep open is 64."
    ));
    assert!(user_contextual(
        "Warning: apply_patch was requested via exec_command. Use the apply_patch tool instead of exec_command."
    ));
    assert!(user_contextual(
        "Warning: Your account was flagged for potentially high-risk cyber activity."
    ));
    assert!(!user_contextual(
        "Warning: apply_patch was requested via shell"
    ));
}

#[test]
fn contextual_user_fragment_is_dyn_compatible() {
    // Fragments of different kinds live side by side in one list and render uniformly.
    let fragments = [
        ContextFragment::environment_context("\n  <cwd>/repo</cwd>\n"),
        ContextFragment::turn_aborted(),
    ];
    let rendered: Vec<&str> = fragments.iter().map(ContextFragment::render).collect();
    assert!(rendered.iter().all(|text| user_contextual(text)));
}

#[test]
fn ignores_regular_user_text() {
    assert!(!user_contextual("hello"));
    assert!(!user_contextual(""));
    assert!(!is_contextual_user_message_content(&[]));
}

#[test]
fn any_contextual_part_makes_the_message_contextual() {
    let content = [
        text("<environment_context>x</environment_context>"),
        text("and a real question"),
    ];
    assert!(is_contextual_user_message_content(&content));
}

#[test]
fn media_parts_are_never_contextual() {
    let content = [ContentItem::input_image_url(
        "data:image/png;base64,AAAA",
        None,
    )];
    assert!(!is_contextual_user_message_content(&content));
    // An output_text carrying markers is not a user fragment either.
    assert!(!is_contextual_user_fragment(&ContentItem::output_text(
        "<environment_context>x</environment_context>"
    )));
}

#[test]
fn recognizes_skills_instructions_as_contextual_developer_content() {
    let content = [text(
        "<skills_instructions>\n- demo\n</skills_instructions>",
    )];
    assert!(is_contextual_dev_message_content(&content));
    assert!(!has_non_contextual_dev_message_content(&content));
}

#[test]
fn recognizes_legacy_token_budget_as_contextual_developer_content() {
    let content = [text("<token_budget>12000</token_budget>")];
    assert!(is_contextual_dev_message_content(&content));
    assert!(!has_non_contextual_dev_message_content(&content));
}

#[test]
fn recognizes_context_window_as_contextual_developer_content() {
    assert!(is_contextual_dev_message_content(&[text(
        "<context_window>258400</context_window>"
    )]));
}

#[test]
fn recognizes_context_window_guidance_as_contextual_developer_content() {
    assert!(is_contextual_dev_message_content(&[text(
        "<context_window_guidance>be brief</context_window_guidance>"
    )]));
}

#[test]
fn developer_prefix_matching_ignores_case_and_leading_space_but_needs_no_end() {
    assert_eq!(
        match_developer_fragment("  <PERMISSIONS INSTRUCTIONS>\nsandbox: workspace-write"),
        Some(DeveloperFragmentKind::Permissions)
    );
    assert_eq!(
        match_developer_fragment("Approved command prefix saved:\n- [\"git\", \"status\"]"),
        Some(DeveloperFragmentKind::ApprovedCommandPrefix)
    );
    assert_eq!(match_developer_fragment("<permissions_instructions>"), None);
    assert_eq!(
        match_developer_fragment("<current_time_reminder>It is noon."),
        None
    );
}

#[test]
fn mixed_developer_bundle_has_non_contextual_content() {
    let content = [
        text("<collaboration_mode>pair</collaboration_mode>"),
        text("Always run the tests."),
    ];
    assert!(is_contextual_dev_message_content(&content));
    assert!(has_non_contextual_dev_message_content(&content));
    let with_image = [
        text("<collaboration_mode>pair</collaboration_mode>"),
        ContentItem::input_image_url("u", None),
    ];
    assert!(has_non_contextual_dev_message_content(&with_image));
}

#[test]
fn inter_agent_instruction_is_one_json_text_part() {
    let json = r#"{"author":"/root","recipient":"/root/worker","other_recipients":[],"content":"run the tests","trigger_turn":true}"#;
    assert!(is_inter_agent_instruction_content(&[
        ContentItem::output_text(json)
    ]));
    assert!(is_inter_agent_instruction_content(&[text(json)]));
    // other_recipients defaults; unknown keys are tolerated.
    assert!(is_inter_agent_instruction_content(&[text(
        r#"{"author":"/root","recipient":"/root/w","content":"x","trigger_turn":false,"id":"m1"}"#
    )]));
    // trigger_turn is required; two parts or plain text are not instructions.
    assert!(!is_inter_agent_instruction_content(&[text(
        r#"{"author":"/root","recipient":"/root/w","content":"x"}"#
    )]));
    assert!(!is_inter_agent_instruction_content(&[
        text(json),
        text(json)
    ]));
    assert!(!is_inter_agent_instruction_content(&[text(
        "author: /root\nrecipient: /root/worker\n\nrun the tests"
    )]));
    assert!(!is_inter_agent_instruction_content(&[]));
}

#[test]
fn registry_has_exactly_one_row_per_kind() {
    use std::collections::HashSet;
    let user_kinds: HashSet<_> = USER_FRAGMENTS.iter().map(|spec| spec.kind).collect();
    assert_eq!(user_kinds.len(), USER_FRAGMENTS.len());
    assert_eq!(user_kinds.len(), 14);
    let developer_kinds: HashSet<_> = DEVELOPER_PREFIXES.iter().map(|spec| spec.kind).collect();
    assert_eq!(developer_kinds.len(), DEVELOPER_PREFIXES.len());
    assert_eq!(developer_kinds.len(), 19);
    let prefixes: HashSet<_> = DEVELOPER_PREFIXES.iter().map(|spec| spec.prefix).collect();
    assert_eq!(prefixes.len(), DEVELOPER_PREFIXES.len());
}

proptest! {
    #[test]
    fn hook_prompt_escaping_round_trips(body in any::<String>(), run_id in "[a-zA-Z0-9 _&<>\"'-]{0,12}") {
        let fragment = HookPromptFragment::from_single_hook(body, run_id.clone());
        let rendered = render_hook_prompt_fragment(&fragment);
        let parsed = parse_hook_prompt_fragment(&rendered);
        // Surrounding whitespace of the body is part of the element and survives because
        // only the element itself is trimmed.
        if run_id.trim().is_empty() {
            prop_assert_eq!(parsed, None);
        } else {
            prop_assert_eq!(parsed, Some(fragment));
        }
    }

    #[test]
    fn plain_text_without_markers_is_never_contextual(body in "[a-zA-Z0-9 .,!?\n]{0,200}") {
        prop_assert!(!user_contextual(&body));
        prop_assert!(!is_contextual_dev_message_content(&[text(&body)]));
    }

    #[test]
    fn matching_never_panics(body in any::<String>()) {
        let _ = match_user_fragment(&body);
        let _ = match_developer_fragment(&body);
        let _ = parse_hook_prompt_fragment(&body);
        let _ = is_inter_agent_instruction_content(&[text(&body)]);
    }
}
