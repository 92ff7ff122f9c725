use super::*;
use crate::session::media::image_header::ImageFormat;
use crate::session::media::test_images;
use pretty_assertions::assert_eq;

#[test]
fn a_data_url_holding_an_image_is_inline_with_its_size() {
    let image = SessionImage::from_url(&test_images::png_data_url(64, 32));
    let SessionImage::Inline {
        info,
        bytes,
        data_url,
    } = &image
    else {
        panic!("not inline: {image:?}");
    };
    assert_eq!(
        (info.format, info.width, info.height),
        (ImageFormat::Png, 64, 32)
    );
    assert_eq!(*bytes, test_images::png(64, 32).len());
    assert!(data_url.starts_with("data:image/png;base64,"), "{data_url}");
    assert_eq!(image.location(), None);
}

#[test]
fn a_data_url_without_an_image_is_unreadable() {
    assert_eq!(
        SessionImage::from_url(&encode_data_url("image/png", b"not a png")),
        SessionImage::Unreadable(Some(9))
    );
    assert_eq!(
        SessionImage::from_url("data:image/png;base64"),
        SessionImage::Unreadable(None)
    );
}

#[test]
fn other_urls_are_remote_or_a_placeholder() {
    let remote = SessionImage::from_url("HTTPS://example.com/a.png");
    assert_eq!(
        remote,
        SessionImage::Remote("HTTPS://example.com/a.png".into())
    );
    assert_eq!(remote.location(), Some("HTTPS://example.com/a.png"));
    assert_eq!(
        SessionImage::from_url("[image omitted]"),
        SessionImage::Missing("[image omitted]".into())
    );
    assert_eq!(
        SessionImage::LocalFile("/tmp/a.png".into()).location(),
        Some("/tmp/a.png")
    );
}
