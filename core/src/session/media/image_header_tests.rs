use super::*;
use crate::session::media::test_images;
use pretty_assertions::assert_eq;
use proptest::prelude::*;

#[test]
fn reads_png_size() {
    let info = read_image_info(&test_images::png(640, 480));
    assert_eq!(
        info,
        Some(ImageInfo {
            format: ImageFormat::Png,
            width: 640,
            height: 480
        })
    );
}

#[test]
fn reads_gif_size() {
    let mut bytes = b"GIF89a".to_vec();
    bytes.extend_from_slice(&300u16.to_le_bytes());
    bytes.extend_from_slice(&200u16.to_le_bytes());
    // The rest of the logical screen descriptor: packed fields, background, aspect ratio.
    bytes.extend_from_slice(&[0x00, 0x00, 0x00]);
    let info = read_image_info(&bytes);
    assert_eq!(
        info.map(|i| (i.format, i.width, i.height)),
        Some((ImageFormat::Gif, 300, 200))
    );
}

#[test]
fn reads_jpeg_size_after_app_segments() {
    let mut bytes = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00];
    bytes.extend_from_slice(&[0xFF, 0xC0, 0x00, 0x11, 0x08]);
    bytes.extend_from_slice(&1080u16.to_be_bytes());
    bytes.extend_from_slice(&1920u16.to_be_bytes());
    let info = read_image_info(&bytes);
    assert_eq!(
        info.map(|i| (i.format, i.width, i.height)),
        Some((ImageFormat::Jpeg, 1920, 1080))
    );
}

#[test]
fn reads_webp_extended_size() {
    let mut bytes = b"RIFF\0\0\0\0WEBPVP8X".to_vec();
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend_from_slice(&[0xFF, 0x03, 0x00]);
    bytes.extend_from_slice(&[0x1F, 0x00, 0x00]);
    let info = read_image_info(&bytes);
    assert_eq!(
        info.map(|i| (i.format, i.width, i.height)),
        Some((ImageFormat::Webp, 1024, 32))
    );
}

#[test]
fn rejects_non_images_and_truncated_headers() {
    assert_eq!(read_image_info(b"hello world"), None);
    assert_eq!(read_image_info(&test_images::png(1, 1)[..18]), None);
    assert_eq!(read_image_info(&test_images::png(0, 10)), None);
}

proptest! {
    #[test]
    fn header_reader_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        let _ = read_image_info(&bytes);
        let mut jpeg = vec![0xFF, 0xD8, 0xFF];
        jpeg.extend_from_slice(&bytes);
        let _ = read_image_info(&jpeg);
    }
}
