//! Opening a rollout whatever its storage: plain JSONL, or zstd (`rollout-….jsonl.zst`).
//!
//! Why here: since 0.137 upstream may compress old session files, and every reader (the
//! loader, the listing's head reader, the CLI on a file or on standard input) must read a
//! compressed file exactly as the plain one. The decision "is this zstd?" is made once, in
//! [`RolloutReader::new`], from the first four bytes (the zstd magic number `28 B5 2F FD`),
//! never from the file name, so standard input and misnamed files work too. No JSON Lines
//! file can start with those bytes (`0xB5` is not valid UTF-8 after `(`).
//!
//! A compressed file may hold several concatenated frames; they are decoded one after the
//! other as one stream. When the compressed data is damaged (truncated, corrupt, trailing
//! garbage), the bytes decoded before the damage are kept and the damage is reported as a
//! [`StreamDamage`], so the loader can keep every complete line before it
//! ([`read_rollout`], [`crate::load::RolloutContents::from_decoded`]).

use std::fs::File;
use std::io::{self, BufReader, Chain, Cursor, Read};
use std::path::Path;

/// The four bytes every zstd frame starts with (`0xFD2FB528`, little-endian).
pub(crate) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// How a rollout's bytes are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Compression {
    /// Plain JSON Lines (`.jsonl`).
    #[default]
    Plain,
    /// zstd, one or several concatenated frames (`.jsonl.zst`).
    Zstd,
}

impl Compression {
    /// The storage of an input that starts with `head`. `head` is the first four bytes, or
    /// the whole input when it is shorter: a short input that is a beginning of the magic
    /// number is a truncated zstd file (no JSON Lines file starts that way).
    pub fn of_head(head: &[u8]) -> Self {
        let head = head.get(..ZSTD_MAGIC.len()).unwrap_or(head);
        if !head.is_empty() && ZSTD_MAGIC.starts_with(head) {
            Compression::Zstd
        } else {
            Compression::Plain
        }
    }
}

/// Why decoding a compressed rollout stopped before its end. Everything decoded before it is
/// good; nothing after it can be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the zstd stream is damaged after {decoded_bytes} decoded byte(s): {reason}")]
pub struct StreamDamage {
    /// How many bytes were decoded before the damage.
    pub decoded_bytes: u64,
    /// The decoder's explanation ("the file ends inside a zstd frame (truncated)", "Data
    /// corruption detected", "Unknown frame descriptor", ...).
    pub reason: String,
}

impl StreamDamage {
    /// The damage an error returned by a [`RolloutReader`] reports, if it is one (other
    /// errors come from the underlying reader: the disk, the pipe).
    pub(crate) fn of_io_error(error: &io::Error) -> Option<&StreamDamage> {
        error.get_ref()?.downcast_ref::<StreamDamage>()
    }

    fn into_io_error(self) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, self)
    }
}

/// The decoded bytes of a rollout: plain bytes pass through, zstd is decoded frame after
/// frame, as a stream (nothing is read ahead beyond the decoder's buffer).
///
/// A read error is either the underlying reader's own (passed through unchanged) or, for a
/// compressed input, a damage to the stream (an [`std::io::Error`] of kind `InvalidData`
/// that names it); after a damage every further read reports it again.
#[derive(Debug)]
pub struct RolloutReader<R: Read> {
    inner: Inner<R>,
}

/// The underlying reader after the sniffed head bytes were put back in front of it.
type Rewound<R> = Chain<Cursor<Vec<u8>>, R>;

enum Inner<R: Read> {
    Plain(Rewound<R>),
    Zstd(Box<ZstdState<R>>),
}

impl<R: Read> std::fmt::Debug for Inner<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Inner::Plain(_) => f.write_str("Plain"),
            Inner::Zstd(state) => f
                .debug_struct("Zstd")
                .field("decoded", &state.decoded)
                .field("damage", &state.damage)
                .finish_non_exhaustive(),
        }
    }
}

struct ZstdState<R: Read> {
    decoder: zstd::stream::read::Decoder<'static, BufReader<Tracked<Rewound<R>>>>,
    decoded: u64,
    damage: Option<StreamDamage>,
}

impl<R: Read> RolloutReader<R> {
    /// Reads up to four bytes of `reader` to tell plain from zstd, and puts them back.
    /// Fails only when that first read fails.
    pub fn new(mut reader: R) -> io::Result<Self> {
        let mut head = Vec::with_capacity(ZSTD_MAGIC.len());
        (&mut reader)
            .take(ZSTD_MAGIC.len() as u64)
            .read_to_end(&mut head)?;
        let compression = Compression::of_head(&head);
        let rewound = Cursor::new(head).chain(reader);
        let inner = match compression {
            Compression::Plain => Inner::Plain(rewound),
            Compression::Zstd => Inner::Zstd(Box::new(ZstdState {
                decoder: zstd::stream::read::Decoder::new(Tracked {
                    inner: rewound,
                    failed: false,
                })?,
                decoded: 0,
                damage: None,
            })),
        };
        Ok(Self { inner })
    }

    /// How the input is stored.
    pub fn compression(&self) -> Compression {
        match self.inner {
            Inner::Plain(_) => Compression::Plain,
            Inner::Zstd(_) => Compression::Zstd,
        }
    }
}

impl<R: Read> Read for RolloutReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let state = match &mut self.inner {
            Inner::Plain(reader) => return reader.read(buf),
            Inner::Zstd(state) => state,
        };
        if let Some(damage) = &state.damage {
            return Err(damage.clone().into_io_error());
        }
        match state.decoder.read(buf) {
            Ok(read) => {
                state.decoded += read as u64;
                Ok(read)
            }
            Err(error) if std::mem::take(&mut state.decoder.get_mut().get_mut().failed) => {
                Err(error)
            }
            Err(error) => {
                let reason = if error.kind() == io::ErrorKind::UnexpectedEof {
                    "the file ends inside a zstd frame (truncated)".to_string()
                } else {
                    error.to_string()
                };
                let damage = StreamDamage {
                    decoded_bytes: state.decoded,
                    reason,
                };
                state.damage = Some(damage.clone());
                Err(damage.into_io_error())
            }
        }
    }
}

/// Opens the rollout file at `path`, plain or compressed. The error is the operating
/// system's; callers name the file.
pub fn open_rollout(path: &Path) -> io::Result<RolloutReader<File>> {
    RolloutReader::new(File::open(path)?)
}

/// A whole rollout, decoded: its bytes, how it was stored, and the damage that stopped
/// decoding early, if any (then `bytes` is what was decoded before it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecodedRollout {
    /// The plain JSON Lines bytes.
    pub bytes: Vec<u8>,
    /// How the input was stored.
    pub compression: Compression,
    /// Why decoding stopped before the end of a compressed input.
    pub damage: Option<StreamDamage>,
}

/// Reads everything from `reader` (a file, standard input), decoding zstd when the input
/// starts with its magic number. A damaged compressed stream is not an error: the bytes
/// decoded before the damage are returned with it. Fails only when `reader` itself fails.
pub(crate) fn read_rollout(reader: impl Read) -> io::Result<DecodedRollout> {
    read_sized(reader, 0)
}

/// Reads the rollout file at `path`: decoded whole when it is compressed (damage reported, not
/// an error), its bytes as they are when plain.
pub fn read_rollout_file(path: &Path) -> io::Result<DecodedRollout> {
    let file = File::open(path)?;
    let size = file.metadata().map_or(0, |metadata| metadata.len());
    read_sized(file, usize::try_from(size).unwrap_or(0))
}

/// [`read_rollout`] of an input of `size` bytes (0 when unknown): a plain input is read into
/// a buffer of that size at once instead of a growing one.
fn read_sized(reader: impl Read, size: usize) -> io::Result<DecodedRollout> {
    let mut reader = RolloutReader::new(reader)?;
    let compression = reader.compression();
    let mut bytes = Vec::new();
    let damage = match &mut reader.inner {
        Inner::Plain(plain) => {
            bytes.reserve_exact(size);
            plain.read_to_end(&mut bytes)?;
            None
        }
        Inner::Zstd(_) => read_to_damage(&mut reader, &mut bytes)?,
    };
    Ok(DecodedRollout {
        bytes,
        compression,
        damage,
    })
}

/// Reads `reader` to its end or to the first damage; other errors are returned.
fn read_to_damage(reader: &mut impl Read, bytes: &mut Vec<u8>) -> io::Result<Option<StreamDamage>> {
    loop {
        match reader.read_to_end(bytes) {
            Ok(_) => return Ok(None),
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => match StreamDamage::of_io_error(&error) {
                Some(damage) => return Ok(Some(damage.clone())),
                None => return Err(error),
            },
        }
    }
}

/// Decodes bytes already in memory; reading memory cannot fail, so any error is damage.
pub(crate) fn decode_in_memory(bytes: Vec<u8>) -> DecodedRollout {
    if Compression::of_head(&bytes) == Compression::Plain {
        return DecodedRollout {
            bytes,
            compression: Compression::Plain,
            damage: None,
        };
    }
    read_rollout(Cursor::new(bytes)).unwrap_or_else(|error| DecodedRollout {
        bytes: Vec::new(),
        compression: Compression::Zstd,
        damage: Some(StreamDamage {
            decoded_bytes: 0,
            reason: error.to_string(),
        }),
    })
}

/// A reader that remembers that it failed, so a decoder error can be told from an error of
/// the reader underneath it.
struct Tracked<R> {
    inner: R,
    failed: bool,
}

impl<R: Read> Read for Tracked<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let result = self.inner.read(buf);
        self.failed = result.is_err();
        result
    }
}

#[cfg(test)]
#[path = "source_tests.rs"]
mod tests;
