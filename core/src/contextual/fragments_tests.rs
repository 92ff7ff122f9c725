use codex_protocol::items::HookPromptFragment;
use codex_protocol::models::{ContentItem, ResponseItem};
use pretty_assertions::assert_eq;
use proptest::prelude::*;

use super::registry::{DEVELOPER_PREFIXES, USER_FRAGMENTS, UserMarkerRule};
use super::*;

/// `(role, texts)` of each merged message, for compact assertions.
fn shape(messages: &[ResponseItem]) -> Vec<(String, Vec<String>)> {
    messages
        .iter()
        .map(|message| {
            let role = message.role().unwrap_or_default().to_string();
            let texts = message
                .message_content()
                .unwrap_or_default()
                .iter()
                .filter_map(|part| part.text().map(str::to_string))
                .collect();
            (role, texts)
        })
        .collect()
}

fn dev(text: &str) -> ContextFragment {
    ContextFragment::text(PromptSlot::DeveloperPolicy, text)
}

fn user(text: &str) -> ContextFragment {
    ContextFragment::text(PromptSlot::ContextualUser, text)
}

fn owned(role: &str, texts: &[&str]) -> (String, Vec<String>) {
    (
        role.to_string(),
        texts.iter().map(|text| (*text).to_string()).collect(),
    )
}

#[test]
fn merges_adjacent_fragments_of_the_same_role_in_order() {
    let merged = merge_context_fragments(&[dev("d1"), dev("d2"), user("u1"), user("u2")]);
    assert_eq!(
        shape(&merged),
        vec![
            owned("developer", &["d1", "d2"]),
            owned("user", &["u1", "u2"])
        ]
    );
}

#[test]
fn a_role_change_breaks_the_group_and_order_is_never_bucketed() {
    let merged = merge_context_fragments(&[dev("d1"), user("u1"), dev("d2")]);
    assert_eq!(
        shape(&merged),
        vec![
            owned("developer", &["d1"]),
            owned("user", &["u1"]),
            owned("developer", &["d2"]),
        ]
    );
}

#[test]
fn separate_message_fragments_stand_alone_on_both_sides() {
    let separate = dev("s").separate();
    let merged = merge_context_fragments(&[dev("d1"), separate, dev("d2"), dev("d3")]);
    assert_eq!(
        shape(&merged),
        vec![
            owned("developer", &["d1"]),
            owned("developer", &["s"]),
            owned("developer", &["d2", "d3"]),
        ]
    );
    let slotted = ContextFragment::text(PromptSlot::SeparateDeveloper, "x");
    assert!(slotted.requires_separate_message());
    assert_eq!(
        merge_context_fragments(&[slotted.clone(), slotted]).len(),
        2
    );
}

#[test]
fn merged_messages_have_no_id_and_no_phase() {
    let merged = merge_context_fragments(&[dev("d")]);
    assert_eq!(
        merged,
        vec![ResponseItem::message(
            "developer",
            vec![ContentItem::input_text("d")]
        )]
    );
    assert!(merge_context_fragments(&[]).is_empty());
}

#[test]
fn slot_decides_the_role_and_moves_stay_within_a_role() -> Result<(), FragmentError> {
    assert_eq!(
        PromptSlot::DeveloperCapabilities.role(),
        FragmentRole::Developer
    );
    assert_eq!(PromptSlot::ContextualUser.role(), FragmentRole::User);
    let moved =
        ContextFragment::model_switch("be terse").with_slot(PromptSlot::DeveloperCapabilities)?;
    assert_eq!(moved.slot(), PromptSlot::DeveloperCapabilities);
    assert!(moved.is_model_switch());
    assert!(!moved.requires_separate_message());
    let separate = dev("x").with_slot(PromptSlot::SeparateDeveloper)?;
    assert!(separate.requires_separate_message());
    assert_eq!(
        ContextFragment::turn_aborted().with_slot(PromptSlot::DeveloperPolicy),
        Err(FragmentError::RoleMismatch {
            slot: PromptSlot::DeveloperPolicy,
            slot_role: FragmentRole::Developer,
            role: FragmentRole::User,
        })
    );
    Ok(())
}

#[test]
fn renders_developer_fragments_with_registered_markers() {
    let model_switch = ContextFragment::model_switch("Use tabs.");
    assert_eq!(
        model_switch.render(),
        "<model_switch>\nThe user was previously using a different model. Please continue the conversation according to the following instructions:\n\nUse tabs.\n</model_switch>"
    );
    let permissions = ContextFragment::developer_marked(
        DeveloperFragmentKind::Permissions,
        "\nsandbox: read-only\n",
    );
    assert_eq!(
        permissions.render(),
        "<permissions instructions>\nsandbox: read-only\n</permissions instructions>"
    );
    assert_eq!(permissions.role(), FragmentRole::Developer);
    let approved = ContextFragment::developer_marked(
        DeveloperFragmentKind::ApprovedCommandPrefix,
        "\n- [\"ls\"]",
    );
    assert_eq!(
        approved.render(),
        "Approved command prefix saved:\n- [\"ls\"]"
    );
}

#[test]
fn renders_user_fragments_exactly() -> Result<(), FragmentError> {
    assert_eq!(
        ContextFragment::user_shell_command("ls", 0, 0.25, "a\nb").render(),
        "<user_shell_command>\n<command>\nls\n</command>\n<result>\nExit code: 0\nDuration: 0.2500 seconds\nOutput:\na\nb\n</result>\n</user_shell_command>"
    );
    assert_eq!(
        ContextFragment::skill("demo", "skills/demo/SKILL.md", "body").render(),
        "<skill>\n<name>demo</name>\n<path>skills/demo/SKILL.md</path>\nbody\n</skill>"
    );
    assert_eq!(
        ContextFragment::turn_aborted().render(),
        format!(
            "<turn_aborted>\n{}\n</turn_aborted>",
            fragments::TURN_ABORTED_GUIDANCE
        )
    );
    assert_eq!(
        ContextFragment::external_context("jira", "T-1")?.render(),
        "<external_jira>T-1</external_jira>"
    );
    assert!(ContextFragment::external_context("", "x").is_err());
    assert!(ContextFragment::external_context("a b", "x").is_err());
    assert_eq!(
        ContextFragment::user_marked(UserFragmentKind::InternalContext, "x"),
        Err(FragmentError::NotPlainMarked(FragmentKind::User(
            UserFragmentKind::InternalContext
        )))
    );
    Ok(())
}

#[test]
fn every_registered_kind_renders_to_text_it_recognises() -> Result<(), FragmentError> {
    for spec in USER_FRAGMENTS {
        let fragment = match spec.rule {
            UserMarkerRule::Marked { .. } | UserMarkerRule::MarkedExact { .. } => {
                ContextFragment::user_marked(spec.kind, "\nbody\n")?
            }
            UserMarkerRule::InternalContext => ContextFragment::internal_context("ext_1", "body")?,
            UserMarkerRule::ExternalContext => ContextFragment::external_context("src", "body")?,
            UserMarkerRule::Prefix(prefix) => {
                ContextFragment::text(PromptSlot::ContextualUser, format!("{prefix} 3."))
            }
        };
        assert_eq!(
            match_user_fragment(fragment.render()),
            Some(spec.kind),
            "{:?}",
            fragment.render()
        );
    }
    for spec in DEVELOPER_PREFIXES {
        let fragment = ContextFragment::developer_marked(spec.kind, "\nbody\n");
        assert_eq!(fragment.kind(), FragmentKind::Developer(spec.kind));
        assert_eq!(match_developer_fragment(fragment.render()), Some(spec.kind));
        assert!(is_contextual_dev_message_content(&[
            ContentItem::input_text(fragment.render())
        ]));
    }
    Ok(())
}

#[test]
fn hook_prompt_fragment_is_user_context_in_its_own_message() {
    let fragment =
        ContextFragment::hook_prompt(&HookPromptFragment::from_single_hook("again", "run-9"));
    assert_eq!(fragment.role(), FragmentRole::User);
    assert!(fragment.requires_separate_message());
    let merged = merge_context_fragments(&[user("u"), fragment, user("v")]);
    assert_eq!(merged.len(), 3);
}

#[test]
fn build_text_message_keeps_sections_apart_and_skips_empty_ones() {
    assert_eq!(
        build_text_message(FragmentRole::Developer, ["a", "", "b"]),
        Some(ResponseItem::message(
            "developer",
            vec![ContentItem::input_text("a"), ContentItem::input_text("b")]
        ))
    );
    assert_eq!(
        build_text_message(FragmentRole::User, Vec::<String>::new()),
        None
    );
    assert_eq!(build_text_message(FragmentRole::User, [""]), None);
}

#[test]
fn into_message_uses_the_fragment_role() {
    let message = ContextFragment::environment_context("\n  <cwd>/r</cwd>\n").into_message();
    assert_eq!(message.role(), Some("user"));
    assert!(is_contextual_user_message_content(
        message.message_content().unwrap_or_default()
    ));
}

fn arb_fragment() -> impl Strategy<Value = ContextFragment> {
    (any::<bool>(), any::<bool>(), 0u16..1000).prop_map(|(developer, separate, n)| {
        let slot = if developer {
            PromptSlot::DeveloperPolicy
        } else {
            PromptSlot::ContextualUser
        };
        let fragment = ContextFragment::text(slot, format!("section-{n}"));
        if separate {
            fragment.separate()
        } else {
            fragment
        }
    })
}

proptest! {
    #[test]
    fn merge_keeps_order_and_never_leaves_two_mergeable_neighbours(
        fragments in proptest::collection::vec(arb_fragment(), 0..24)
    ) {
        let merged = merge_context_fragments(&fragments);
        // Order: the sections, read message by message, are the input in order.
        let flattened: Vec<String> = shape(&merged).into_iter().flat_map(|(_, texts)| texts).collect();
        let expected: Vec<String> = fragments.iter().map(|f| f.render().to_string()).collect();
        prop_assert_eq!(flattened, expected);
        // Maximal merging: the number of messages equals the number of break points.
        let breaks = fragments.windows(2).filter(|pair| {
            pair[0].role() != pair[1].role()
                || pair[0].requires_separate_message()
                || pair[1].requires_separate_message()
        }).count();
        prop_assert_eq!(merged.len(), if fragments.is_empty() { 0 } else { breaks + 1 });
        // Every message has one role, the role of its fragments.
        for (message, fragment_role) in merged.iter().zip(
            fragments.iter().enumerate().filter(|(i, f)| {
                *i == 0 || {
                    let prev = &fragments[i - 1];
                    prev.role() != f.role() || prev.requires_separate_message() || f.requires_separate_message()
                }
            }).map(|(_, f)| f.role())
        ) {
            prop_assert_eq!(message.role(), Some(fragment_role.as_str()));
        }
    }
}
