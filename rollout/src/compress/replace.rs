//! One plain rollout replaced by its compressed copy, in the order that makes every
//! intermediate state readable (see the parent module's docs).

use std::fs::{File, FileTimes, Metadata, OpenOptions};
use std::io::{self, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use tracing::{debug, warn};

use super::{CompressError, CompressOutcome, EncoderSettings, SkipReason};

/// What temporary files start with; never a rollout name (`rollout-…`), so no reader lists
/// them.
const TEMP_PREFIX: &str = ".codex-thread-compress.";
const TEMP_SUFFIX: &str = ".tmp";
const CHUNK: usize = 256 * 1024;

/// The steps of a replacement, for tests that stop after one (a kill at that moment).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[cfg_attr(not(any(test, feature = "testing")), allow(dead_code, unreachable_pub))]
pub enum Step {
    /// The temporary file is written, synced and checked.
    Verified,
    /// The compressed name exists beside the plain file.
    Linked,
    /// The temporary name is gone.
    TempRemoved,
}

/// One plain file replaced by its compressed copy ([`Replacement::run`]).
pub struct Replacement<'a> {
    /// The plain `X.jsonl`.
    pub plain: &'a Path,
    /// Its compressed name, `X.jsonl.zst`.
    pub target: &'a Path,
    /// The plain file's metadata when it was chosen; a change since means it is left plain.
    pub metadata: &'a Metadata,
    /// How to encode.
    pub encoder: EncoderSettings,
    /// Whether the thread is still free of a writer (asked again before each change).
    pub still_free: &'a dyn Fn() -> bool,
    /// Called with the bytes read as they are read.
    pub progress: &'a (dyn Fn(u64) + Sync),
}

impl std::fmt::Debug for Replacement<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Replacement")
            .field("plain", &self.plain)
            .field("target", &self.target)
            .field("encoder", &self.encoder)
            .finish_non_exhaustive()
    }
}

impl Replacement<'_> {
    /// Replaces the file, in the order that keeps every moment readable; the plain file is
    /// never removed when an error is returned.
    pub fn run(&self) -> Result<CompressOutcome, CompressError> {
        self.run_until(None)
    }

    /// [`Replacement::run`], stopped (as a kill would) after `step`.
    #[cfg(any(test, feature = "testing"))]
    pub fn run_stopping_after(&self, step: Step) -> Result<CompressOutcome, CompressError> {
        self.run_until(Some(step))
    }

    fn run_until(&self, stop_after: Option<Step>) -> Result<CompressOutcome, CompressError> {
        let plain_bytes = self.metadata.len();
        if self.target.exists() {
            (self.progress)(plain_bytes);
            return self.finish_interrupted(plain_bytes);
        }
        let folder = parent(self.plain);
        let temp_path = folder.join(format!(
            "{TEMP_PREFIX}{}.{}{TEMP_SUFFIX}",
            std::process::id(),
            file_name(self.target)
        ));
        let temp = OpenOptions::new()
            .write(true)
            .read(true)
            .create_new(true)
            .open(&temp_path)
            .map_err(CompressError::io(&temp_path))?;
        // Held until the temporary file is gone, so another run can tell it is in use.
        temp.lock().map_err(CompressError::io(&temp_path))?;
        let result = self.write_and_check(&temp, &temp_path);
        let outcome = match result {
            Ok(Some(compressed_bytes)) => {
                self.put_in_place(&temp_path, plain_bytes, compressed_bytes, stop_after)
            }
            Ok(None) => Ok(CompressOutcome::Skipped {
                reason: SkipReason::Changed,
            }),
            Err(err) => Err(err),
        };
        // Closing the file lets its lock go.
        drop(temp);
        if stop_after.is_some() {
            // A test's "kill": leave the files as they are.
            return outcome;
        }
        if temp_path.exists()
            && let Err(err) = std::fs::remove_file(&temp_path)
        {
            warn!(path = %temp_path.display(), error = %err, "cannot remove temporary file");
        }
        outcome
    }

    /// Writes the compressed copy into `temp`, syncs it, gives it the plain file's times and
    /// checks it; `None` when the plain file changed meanwhile.
    fn write_and_check(&self, temp: &File, temp_path: &Path) -> Result<Option<u64>, CompressError> {
        let plain = File::open(self.plain).map_err(CompressError::io(self.plain))?;
        let mut encoder = self
            .encoder
            .encoder(
                io::BufWriter::with_capacity(CHUNK, temp),
                Some(self.metadata.len()),
            )
            .map_err(CompressError::io(temp_path))?;
        let mut reader = BufReader::with_capacity(CHUNK, plain);
        let mut buf = vec![0u8; CHUNK];
        loop {
            let read = match reader.read(&mut buf) {
                Ok(0) => break,
                Ok(read) => read,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(CompressError::io(self.plain)(err)),
            };
            encoder
                .write_all(&buf[..read])
                .map_err(CompressError::io(temp_path))?;
            (self.progress)(read as u64);
        }
        match encoder.finish() {
            // The pledged size no longer matches: the file grew or shrank while read.
            Err(_) if changed(self.plain, self.metadata) => return Ok(None),
            Err(err) => return Err(CompressError::io(temp_path)(err)),
            Ok(mut writer) => writer.flush().map_err(CompressError::io(temp_path))?,
        }
        let mut times = FileTimes::new();
        if let Ok(modified) = self.metadata.modified() {
            times = times.set_modified(modified);
        }
        if let Ok(accessed) = self.metadata.accessed() {
            times = times.set_accessed(accessed);
        }
        temp.set_times(times)
            .map_err(CompressError::io(temp_path))?;
        temp.sync_all().map_err(CompressError::io(temp_path))?;
        if changed(self.plain, self.metadata) {
            return Ok(None);
        }
        same_content(self.plain, temp_path)?;
        let compressed = temp.metadata().map_err(CompressError::io(temp_path))?.len();
        Ok(Some(compressed))
    }

    /// Links the checked copy to the compressed name, then removes the temporary name and
    /// the plain file.
    fn put_in_place(
        &self,
        temp_path: &Path,
        plain_bytes: u64,
        compressed_bytes: u64,
        stop_after: Option<Step>,
    ) -> Result<CompressOutcome, CompressError> {
        if stop_after == Some(Step::Verified) {
            return Ok(self.stopped());
        }
        if changed(self.plain, self.metadata) {
            return Ok(CompressOutcome::Skipped {
                reason: SkipReason::Changed,
            });
        }
        if !(self.still_free)() {
            return Ok(CompressOutcome::Skipped {
                reason: SkipReason::OpenInCodex,
            });
        }
        match std::fs::hard_link(temp_path, self.target) {
            Ok(()) => {}
            Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {
                return Ok(CompressOutcome::Skipped {
                    reason: SkipReason::SiblingDiffers,
                });
            }
            Err(err) => return Err(CompressError::io(self.target)(err)),
        }
        if stop_after == Some(Step::Linked) {
            return Ok(self.stopped());
        }
        std::fs::remove_file(temp_path).map_err(CompressError::io(temp_path))?;
        sync_folder(self.plain)?;
        if stop_after == Some(Step::TempRemoved) {
            return Ok(self.stopped());
        }
        self.remove_plain()?;
        Ok(CompressOutcome::Compressed {
            target: self.target.to_path_buf(),
            plain_bytes,
            compressed_bytes,
        })
    }

    /// `X.jsonl.zst` already exists: an interrupted run's checked copy (then the plain file
    /// goes, after checking again), or something else (then both stay).
    fn finish_interrupted(&self, plain_bytes: u64) -> Result<CompressOutcome, CompressError> {
        match same_content(self.plain, self.target) {
            Ok(()) => {}
            Err(CompressError::Mismatch { .. }) => {
                return Ok(CompressOutcome::Skipped {
                    reason: SkipReason::SiblingDiffers,
                });
            }
            Err(err) => return Err(err),
        }
        if changed(self.plain, self.metadata) {
            return Ok(CompressOutcome::Skipped {
                reason: SkipReason::Changed,
            });
        }
        if !(self.still_free)() {
            return Ok(CompressOutcome::Skipped {
                reason: SkipReason::OpenInCodex,
            });
        }
        let compressed_bytes = std::fs::metadata(self.target)
            .map_err(CompressError::io(self.target))?
            .len();
        self.remove_plain()?;
        Ok(CompressOutcome::Finished {
            target: self.target.to_path_buf(),
            plain_bytes,
            compressed_bytes,
        })
    }

    fn remove_plain(&self) -> Result<(), CompressError> {
        std::fs::remove_file(self.plain).map_err(CompressError::io(self.plain))?;
        sync_folder(self.plain)
    }

    fn stopped(&self) -> CompressOutcome {
        CompressOutcome::Failed {
            error: "stopped by the test".to_string(),
        }
    }
}

/// Whether the plain file's size or modification time moved since `before`.
fn changed(path: &Path, before: &Metadata) -> bool {
    match std::fs::metadata(path) {
        Ok(now) => now.len() != before.len() || now.modified().ok() != before.modified().ok(),
        Err(_) => true,
    }
}

/// Checks that the zstd file `compressed` decodes, with the default decoder (the window limit
/// upstream's reader has), to exactly the bytes of `plain`.
fn same_content(plain: &Path, compressed: &Path) -> Result<(), CompressError> {
    let mut plain_reader =
        BufReader::with_capacity(CHUNK, File::open(plain).map_err(CompressError::io(plain))?);
    let file = File::open(compressed).map_err(CompressError::io(compressed))?;
    let mut decoded =
        zstd::stream::read::Decoder::new(file).map_err(CompressError::io(compressed))?;
    let mut want = vec![0u8; CHUNK];
    let mut got = vec![0u8; CHUNK];
    let mut offset = 0u64;
    loop {
        let read = read_full(&mut plain_reader, &mut want).map_err(CompressError::io(plain))?;
        let decoded_len = read_full(&mut decoded, &mut got).map_err(|err| {
            debug!(error = %err, "compressed copy does not decode");
            CompressError::Mismatch {
                path: plain.to_path_buf(),
                offset,
            }
        })?;
        let common = read.min(decoded_len);
        if want[..common] != got[..common]
            && let Some(at) = (0..common).find(|&i| want[i] != got[i])
        {
            return Err(CompressError::Mismatch {
                path: plain.to_path_buf(),
                offset: offset + at as u64,
            });
        }
        if read != decoded_len {
            return Err(CompressError::Mismatch {
                path: plain.to_path_buf(),
                offset: offset + common as u64,
            });
        }
        if read == 0 {
            return Ok(());
        }
        offset += read as u64;
    }
}

/// Reads until `buf` is full or the input ends.
fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(filled)
}

/// Syncs the folder holding `path`, so a rename, link or removal in it is durable.
fn sync_folder(path: &Path) -> Result<(), CompressError> {
    let folder = parent(path);
    #[cfg(unix)]
    {
        File::open(&folder)
            .and_then(|dir| dir.sync_all())
            .map_err(CompressError::io(&folder))?;
    }
    #[cfg(not(unix))]
    let _ = folder;
    Ok(())
}

fn parent(path: &Path) -> PathBuf {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Removes the temporary files of interrupted runs in `folder` (those whose lock nobody
/// holds; a running compression holds its own), unless `dry_run`. Returns how many there
/// were.
pub fn remove_stale_temporary_files(folder: &Path, dry_run: bool) -> usize {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.filter_map(|entry| entry.ok()) {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if !(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX)) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = File::open(&path) else {
            continue;
        };
        if file.try_lock().is_err() {
            continue;
        }
        removed += 1;
        if !dry_run && let Err(err) = std::fs::remove_file(&path) {
            warn!(path = %path.display(), error = %err, "cannot remove stale temporary file");
        }
    }
    removed
}

#[cfg(test)]
#[path = "replace_tests.rs"]
mod tests;
