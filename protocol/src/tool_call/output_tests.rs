use super::*;
use crate::models::FunctionCallOutputContentItem;
use pretty_assertions::assert_eq;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn output(text: &str) -> ResponseItem {
    ResponseItem::function_call_output("call_1", FunctionCallOutputPayload::from_text(text))
}

#[test]
fn a_040_json_output_gives_its_text_exit_code_and_duration() -> TestResult {
    let json = r#"{"output":"a\nb\n","metadata":{"exit_code":2,"duration_seconds":1.25}}"#;
    let facts = output_facts(&output(json)).ok_or("an output")?;
    assert_eq!(facts.text, "a\nb\n");
    assert_eq!(facts.exit_code, Some(2));
    assert_eq!(facts.duration_ms, Some(1250));
    Ok(())
}

#[test]
fn status_lines_give_the_exit_code_and_wall_time() -> TestResult {
    let text = "Chunk ID: 1\nWall time: 0.5 seconds\nProcess exited with code 0\nOutput:\nok";
    let facts = output_facts(&output(text)).ok_or("an output")?;
    assert_eq!((facts.exit_code, facts.duration_ms), (Some(0), Some(500)));
    assert_eq!(facts.text, text);
    let facts = output_facts(&output("Exit code: 127\nWall time: 2 seconds\n")).ok_or("output")?;
    assert_eq!(
        (facts.exit_code, facts.duration_ms),
        (Some(127), Some(2000))
    );
    Ok(())
}

#[test]
fn text_that_is_not_a_status_says_nothing_of_the_run() -> TestResult {
    let facts = output_facts(&output("{not json\nExit code: x")).ok_or("an output")?;
    assert_eq!((facts.exit_code, facts.duration_ms), (None, None));
    assert!(!facts.textless);
    Ok(())
}

#[test]
fn an_output_of_images_only_is_textless_and_other_items_have_no_facts() -> TestResult {
    let images = ResponseItem::function_call_output(
        "call_1",
        FunctionCallOutputPayload {
            body: crate::models::FunctionCallOutputBody::ContentItems(vec![
                FunctionCallOutputContentItem::input_image_url("data:image/png;base64,AA", None),
            ]),
            success: Some(true),
        },
    );
    let facts = output_facts(&images).ok_or("an output")?;
    assert!(facts.textless);
    assert_eq!((facts.text.as_str(), facts.success), ("", Some(true)));
    let call = ResponseItem::function_call("shell", "{}", "call_1");
    assert_eq!(output_facts(&call), None);
    Ok(())
}
