use super::*;
use crate::session::media::test_images::png_data_url;
use pretty_assertions::assert_eq;
use proptest::prelude::*;

fn settings(mode: ImagePreparationMode) -> MediaSettings {
    MediaSettings {
        image_mode: mode,
        ..MediaSettings::default()
    }
}

fn prepare(
    url: &str,
    detail: Option<ImageDetail>,
    mode: ImagePreparationMode,
) -> (
    Result<Option<ImagePreparationMetadata>, ImagePreparationError>,
    Option<ImageDetail>,
) {
    let mut url = url.to_string();
    let mut detail = detail;
    let result = prepare_image(
        &mut url,
        &mut detail,
        ImageOrigin::default(),
        &settings(mode),
    );
    (result, detail)
}

#[test]
fn detail_based_mode_maps_auto_and_none_to_high() {
    for asked in [None, Some(ImageDetail::Auto), Some(ImageDetail::High)] {
        let (result, detail) = prepare(
            &png_data_url(64, 64),
            asked,
            ImagePreparationMode::DetailBased,
        );
        let meta = result.ok().flatten();
        assert_eq!(meta.map(|m| m.effective_detail), Some(ImageDetail::High));
        assert_eq!(detail, Some(ImageDetail::High));
    }
}

#[test]
fn detail_based_mode_rejects_low_detail() {
    let (result, _) = prepare(
        &png_data_url(64, 64),
        Some(ImageDetail::Low),
        ImagePreparationMode::DetailBased,
    );
    assert_eq!(result, Err(ImagePreparationError::UnsupportedLowDetail));
}

#[test]
fn unified_budget_uses_original_detail_for_every_image() {
    for asked in [None, Some(ImageDetail::Low), Some(ImageDetail::High)] {
        let (result, detail) = prepare(
            &png_data_url(64, 64),
            asked,
            ImagePreparationMode::UnifiedBudget,
        );
        assert_eq!(
            result.ok().flatten().map(|m| m.effective_detail),
            Some(ImageDetail::Original)
        );
        assert_eq!(detail, Some(ImageDetail::Original));
    }
}

#[test]
fn remote_urls_are_rejected_and_file_references_pass_through() {
    let (remote, _) = prepare(
        "https://example.com/cat.png",
        None,
        ImagePreparationMode::DetailBased,
    );
    assert_eq!(remote, Err(ImagePreparationError::RemoteUrlUnsupported));
    let (other, detail) = prepare(
        "file-abc",
        Some(ImageDetail::Low),
        ImagePreparationMode::DetailBased,
    );
    assert_eq!(other, Ok(None));
    assert_eq!(detail, Some(ImageDetail::Low));
}

#[test]
fn undecodable_or_non_image_data_is_unprocessable() {
    let (bad_base64, _) = prepare(
        "data:image/png;base64,@@@",
        None,
        ImagePreparationMode::DetailBased,
    );
    assert_eq!(bad_base64, Err(ImagePreparationError::Unprocessable));
    let (not_image, _) = prepare(
        "data:image/png;base64,aGVsbG8=",
        None,
        ImagePreparationMode::DetailBased,
    );
    assert_eq!(not_image, Err(ImagePreparationError::Unprocessable));
}

#[test]
fn oversized_bytes_are_rejected() {
    let mut url = png_data_url(10, 10);
    let mut detail = None;
    let tight = MediaSettings {
        max_image_bytes: 8,
        ..MediaSettings::default()
    };
    let result = prepare_image(&mut url, &mut detail, ImageOrigin::default(), &tight);
    assert_eq!(result, Err(ImagePreparationError::TooLarge));
}

#[test]
fn fit_within_keeps_small_images_and_shrinks_large_ones() {
    assert_eq!(fit_within(800, 600, HIGH_DETAIL_LIMITS), (800, 600));
    let (w, h) = fit_within(4096, 2048, HIGH_DETAIL_LIMITS);
    assert!(w <= 2048 && h <= 2048);
    assert!(u64::from(w).div_ceil(32) * u64::from(h).div_ceil(32) <= 2_500);
    assert_eq!(
        fit_within(4000, 3000, ORIGINAL_DETAIL_LIMITS).0 <= 6000,
        true
    );
}

proptest! {
    #[test]
    fn fit_within_always_fits_and_keeps_aspect(w in 1u32..20_000, h in 1u32..20_000) {
        for limits in [HIGH_DETAIL_LIMITS, ORIGINAL_DETAIL_LIMITS] {
            let (fw, fh) = fit_within(w, h, limits);
            prop_assert!(fw >= 1 && fh >= 1);
            prop_assert!(fw <= w && fh <= h);
            prop_assert!(fw.max(fh) <= limits.max_dimension.max(1));
            let patches = u64::from(fw).div_ceil(32) * u64::from(fh).div_ceil(32);
            prop_assert!(patches <= limits.max_patches || (fw, fh) == (1, 1) || fw == 1 || fh == 1);
        }
    }
}
