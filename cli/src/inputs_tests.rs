use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[test]
fn nothing_given_means_the_sample_or_the_home() -> TestResult {
    let sample = [Source::Sample];
    assert_eq!(expand_sources(&[], None, WhenEmpty::Sample)?, sample);
    assert_eq!(expand_sources_reporting_each(&[], None)?, sample);
    let tmp = tempfile::tempdir()?;
    std::fs::create_dir(tmp.path().join("sessions"))?;
    assert_eq!(
        expand_sources(&[], Some(tmp.path()), WhenEmpty::Sample)?,
        []
    );
    assert_eq!(expand_sources_reporting_each(&[], Some(tmp.path()))?, []);
    Ok(())
}
