use super::super::tests::Shared;
use super::*;

fn written(json: bool, texts: &[&str], spooled: bool) -> Result<Vec<u8>, Failure> {
    let shared = Shared::default();
    let mut out = Output::to_writer(json, Box::new(shared.clone()));
    if spooled {
        let mut spool = out.spool()?;
        for text in texts {
            spool.push(text)?;
        }
        out.append(spool)?;
    } else {
        for text in texts {
            if json {
                out.json_text(text)?;
            } else {
                out.text(text)?;
            }
        }
    }
    drop(out);
    Ok(shared.0.take())
}

#[test]
fn a_spooled_text_is_written_as_output_writes_it_directly() -> Result<(), Failure> {
    let long = "line with \u{2014} dashes and \u{1b}[31m colour\n".repeat(20_000);
    let texts = [
        "plain",
        "\u{1b}]52;c;aGk=\u{7}",
        "\u{202e}cba\r\n",
        long.as_str(),
    ];
    for json in [false, true] {
        let direct = written(json, &texts, false)?;
        let spooled = written(json, &texts, true)?;
        assert!(direct.len() > COPY_BYTES, "more than one copy's worth");
        assert_eq!(spooled, direct, "json: {json}");
    }
    Ok(())
}

#[test]
fn a_spool_goes_only_where_its_text_was_prepared_for() -> Result<(), Failure> {
    let out = Output::to_writer(false, Box::new(io::sink()));
    let mut json = Output::to_writer(true, Box::new(io::sink()));
    assert!(json.append(out.spool()?).is_err());
    assert!(
        out.spool()?
            .copy_plain_into(&mut io::sink(), Failure::from)
            .is_err()
    );
    let mut plain = Spool::plain()?;
    plain.push("\u{1b}[31m kept")?;
    let mut file = Vec::new();
    plain.copy_plain_into(&mut file, Failure::from)?;
    assert_eq!(file, "\u{1b}[31m kept".as_bytes());
    let mut text = Output::to_writer(false, Box::new(io::sink()));
    assert!(text.append(Spool::plain()?).is_err());
    Ok(())
}
