//! The run-wide answers of a disk-usage report: totals, days, the largest files, duplicate
//! images and lines identical to an earlier file's, merged in file order after the files
//! were measured in parallel.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::ser::{Serialize, SerializeMap, Serializer};

use super::{ByteKind, FileDiskUsage, ImagePlace, Measured};
use codex_rollout::SkipReason;

/// How many of the largest files a report names.
pub const LARGEST_FILES: usize = 10;

/// Bytes by [`ByteKind`] (serialized as an object with one key per kind, in report order).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct KindBytes([u64; ByteKind::ALL.len()]);

impl KindBytes {
    /// The bytes of `kind`.
    pub fn get(&self, kind: ByteKind) -> u64 {
        self.0[kind.index()]
    }

    pub(crate) fn add(&mut self, kind: ByteKind, bytes: u64) {
        self.0[kind.index()] += bytes;
    }

    /// All kinds together.
    pub fn total(&self) -> u64 {
        self.0.iter().sum()
    }

    fn add_all(&mut self, other: &KindBytes) {
        for kind in ByteKind::ALL {
            self.add(kind, other.get(kind));
        }
    }
}

impl Serialize for KindBytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(ByteKind::ALL.len()))?;
        for kind in ByteKind::ALL {
            map.serialize_entry(kind.name(), &self.get(kind))?;
        }
        map.end()
    }
}

/// Image bytes by [`ImagePlace`] (serialized as an object, one key per place).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlaceBytes([u64; ImagePlace::ALL.len()]);

impl PlaceBytes {
    /// The bytes of images stored in `place`.
    pub fn get(&self, place: ImagePlace) -> u64 {
        self.0[place.index()]
    }

    pub(crate) fn add(&mut self, place: ImagePlace, bytes: u64) {
        self.0[place.index()] += bytes;
    }
}

impl Serialize for PlaceBytes {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(ImagePlace::ALL.len()))?;
        for place in ImagePlace::ALL {
            map.serialize_entry(place.name(), &self.get(place))?;
        }
        map.end()
    }
}

/// Inline images of a file or a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct ImageSummary {
    /// How many image data URLs.
    pub count: u64,
    /// Their bytes by the kind of line holding them.
    pub bytes: PlaceBytes,
    /// Copies of an image already seen earlier in the run (in this file or an earlier one).
    pub duplicate_count: u64,
    /// The bytes of those copies.
    pub duplicate_bytes: u64,
}

/// What compression would do with a file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct CompressEstimate {
    /// Whether `compress` (with the same options) would compress it now.
    pub eligible: bool,
    /// Why not, when not.
    pub skip_reason: Option<SkipReason>,
    /// Its compressed size, when estimated.
    pub estimated_bytes: Option<u64>,
}

/// One day's sessions.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DayUsage {
    /// `YYYY-MM-DD`, or `unknown`.
    pub day: String,
    /// Files of that day.
    pub files: usize,
    /// Their size on disk.
    pub disk_bytes: u64,
    /// Their decoded size.
    pub decoded_bytes: u64,
}

/// One of the largest files.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct LargestFile {
    /// The file.
    pub path: std::path::PathBuf,
    /// Its size on disk.
    pub disk_bytes: u64,
    /// Its decoded size.
    pub decoded_bytes: u64,
}

/// The whole run.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DuReport {
    /// Files measured (including unreadable ones).
    pub files: usize,
    /// Files that could not be read.
    pub unreadable_files: usize,
    /// Size on disk.
    pub disk_bytes: u64,
    /// Decoded size.
    pub decoded_bytes: u64,
    /// Decoded bytes by kind.
    pub bytes: KindBytes,
    /// Inline images.
    pub images: ImageSummary,
    /// Distinct images (by content hash).
    pub distinct_images: u64,
    /// Lines children copied from parents (replayed prefixes).
    pub copied_prefix_bytes: u64,
    /// Lines identical to a line of an earlier file.
    pub identical_line_bytes: u64,
    /// Per day, oldest first.
    pub days: Vec<DayUsage>,
    /// The largest files on disk, largest first.
    pub largest: Vec<LargestFile>,
    /// Files compression would take.
    pub compressible_files: usize,
    /// Their size now.
    pub compressible_bytes: u64,
    /// Their estimated compressed size (when estimated).
    pub estimated_compressed_bytes: Option<u64>,
    /// Files compression would leave, by reason.
    pub not_compressible: BTreeMap<&'static str, usize>,
}

impl DuReport {
    /// What compression would save (when estimated).
    pub fn estimated_saving(&self) -> Option<u64> {
        self.estimated_compressed_bytes
            .map(|compressed| self.compressible_bytes.saturating_sub(compressed))
    }
}

/// Merges measured files, in their order, into the files' final usage and the report.
pub(crate) fn merge(measured: Vec<Measured>) -> (Vec<FileDiskUsage>, DuReport) {
    let mut seen_images: HashSet<u64> = HashSet::new();
    let mut seen_lines: HashSet<u64> = HashSet::new();
    let mut days: BTreeMap<String, DayUsage> = BTreeMap::new();
    let mut report = DuReport {
        files: measured.len(),
        unreadable_files: 0,
        disk_bytes: 0,
        decoded_bytes: 0,
        bytes: KindBytes::default(),
        images: ImageSummary::default(),
        distinct_images: 0,
        copied_prefix_bytes: 0,
        identical_line_bytes: 0,
        days: Vec::new(),
        largest: Vec::new(),
        compressible_files: 0,
        compressible_bytes: 0,
        estimated_compressed_bytes: None,
        not_compressible: BTreeMap::new(),
    };
    let mut files = Vec::with_capacity(measured.len());
    for Measured {
        mut usage,
        images,
        lines,
    } in measured
    {
        for (hash, bytes) in images {
            if !seen_images.insert(hash) {
                usage.images.duplicate_count += 1;
                usage.images.duplicate_bytes += bytes;
            }
        }
        let earlier: HashMap<u64, u64> = lines
            .iter()
            .filter(|(hash, _)| seen_lines.contains(hash))
            .map(|&(hash, bytes)| (hash, bytes))
            .collect();
        usage.identical_line_bytes = lines
            .iter()
            .filter(|(hash, _)| earlier.contains_key(hash))
            .map(|(_, bytes)| bytes)
            .sum();
        seen_lines.extend(lines.iter().map(|(hash, _)| *hash));
        add_file(&mut report, &mut days, &usage);
        files.push(usage);
    }
    report.distinct_images = seen_images.len() as u64;
    report.days = days.into_values().collect();
    let mut largest: Vec<&FileDiskUsage> = files.iter().collect();
    largest.sort_by(|a, b| b.disk_bytes.cmp(&a.disk_bytes).then(a.path.cmp(&b.path)));
    report.largest = largest
        .into_iter()
        .take(LARGEST_FILES)
        .map(|file| LargestFile {
            path: file.path.clone(),
            disk_bytes: file.disk_bytes,
            decoded_bytes: file.decoded_bytes,
        })
        .collect();
    (files, report)
}

fn add_file(report: &mut DuReport, days: &mut BTreeMap<String, DayUsage>, usage: &FileDiskUsage) {
    if usage.error.is_some() {
        report.unreadable_files += 1;
        return;
    }
    report.disk_bytes += usage.disk_bytes;
    report.decoded_bytes += usage.decoded_bytes;
    report.bytes.add_all(&usage.bytes);
    report.images.count += usage.images.count;
    for place in ImagePlace::ALL {
        report
            .images
            .bytes
            .add(place, usage.images.bytes.get(place));
    }
    report.images.duplicate_count += usage.images.duplicate_count;
    report.images.duplicate_bytes += usage.images.duplicate_bytes;
    report.copied_prefix_bytes += usage.copied_prefix_bytes;
    report.identical_line_bytes += usage.identical_line_bytes;
    let day = usage.day.clone().unwrap_or_else(|| "unknown".to_string());
    let entry = days.entry(day.clone()).or_insert(DayUsage {
        day,
        files: 0,
        disk_bytes: 0,
        decoded_bytes: 0,
    });
    entry.files += 1;
    entry.disk_bytes += usage.disk_bytes;
    entry.decoded_bytes += usage.decoded_bytes;
    match usage.compress {
        CompressEstimate {
            eligible: true,
            estimated_bytes,
            ..
        } => {
            report.compressible_files += 1;
            report.compressible_bytes += usage.disk_bytes;
            if let Some(bytes) = estimated_bytes {
                *report.estimated_compressed_bytes.get_or_insert(0) += bytes;
            }
        }
        CompressEstimate {
            skip_reason: Some(reason),
            ..
        } => {
            *report
                .not_compressible
                .entry(reason_key(reason))
                .or_insert(0) += 1
        }
        _ => {}
    }
}

fn reason_key(reason: SkipReason) -> &'static str {
    match reason {
        SkipReason::AlreadyCompressed => "already_compressed",
        SkipReason::NotJsonl => "not_jsonl",
        SkipReason::Empty => "empty",
        SkipReason::Recent => "recent",
        SkipReason::OpenInCodex => "open_in_codex",
        SkipReason::LockUnknown => "lock_unknown",
        SkipReason::Changed => "changed",
        SkipReason::SiblingDiffers => "sibling_differs",
    }
}
