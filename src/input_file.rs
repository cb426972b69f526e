//! The one way an input file is read: only a regular file (after following symlinks), and never
//! more than a stated limit.
//!
//! Every input is named by the user or sits in a folder the user points at, so it may be anything:
//! a FIFO (opening it blocks until a writer comes, forever in a build), `/dev/zero` (reading never
//! ends), a 200 MB config (held three times over while parsed), a symlink loop, a folder. Each is
//! refused here with an error that says which of these it is, so a caller never reports a folder
//! or a loop as "does not exist".

use std::fmt;
use std::fs::{File, Metadata};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// A size limit on one kind of input, with the name the error uses for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub bytes: u64,
}

impl Limit {
    pub const fn mib(n: u64) -> Self {
        Limit { bytes: n * 1024 * 1024 }
    }
    pub const fn kib(n: u64) -> Self {
        Limit { bytes: n * 1024 }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MIB: u64 = 1024 * 1024;
        if self.bytes >= MIB && self.bytes.is_multiple_of(MIB) {
            write!(f, "{} MiB", self.bytes / MIB)
        } else if self.bytes >= 1024 && self.bytes.is_multiple_of(1024) {
            write!(f, "{} KiB", self.bytes / 1024)
        } else {
            write!(f, "{} bytes", self.bytes)
        }
    }
}

/// A config.json. Real ones are a few KiB, a few hundred KiB with a large label map. Measured
/// here: a 15.9 MB config (620,000 labels) plans in 5.2 s at a 127 MB peak with a debug build, so
/// a build of several such models in parallel still fits in memory.
pub const CONFIG_LIMIT: Limit = Limit::mib(16);
/// modelatlas.json, which may list every tensor of a checkpoint. Mixtral-8x7B's index in `hub/`
/// spends 93 bytes per tensor (92,658 bytes, 995 tensors); the largest mixtures of experts have
/// ~10^5 tensors, so ~10 MB. 64 MiB leaves room for more.
pub const META_LIMIT: Limit = Limit::mib(64);
/// model.safetensors.index.json: the same ~10 MB estimate as for modelatlas.json.
pub const INDEX_LIMIT: Limit = Limit::mib(64);
/// A ref file holds one 40-character commit.
pub const REF_LIMIT: Limit = Limit::kib(1);
/// models.toml: a line or three per model.
pub const MANIFEST_LIMIT: Limit = Limit::mib(16);
/// A `--cards` file: a dozen lines per card.
pub const CARDS_LIMIT: Limit = Limit::mib(1);

/// Why an input file could not be read. The cause is part of the message (never a separate
/// `source`), so an error chain prints it once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputError {
    Missing { path: PathBuf },
    DanglingSymlink { path: PathBuf, target: PathBuf },
    SymlinkLoop { path: PathBuf },
    Directory { path: PathBuf },
    NotRegular { path: PathBuf, kind: &'static str },
    TooLarge { path: PathBuf, limit: Limit },
    NotUtf8 { path: PathBuf, offset: usize },
    Io { path: PathBuf, reason: String },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.path().display(), self.reason())
    }
}

impl std::error::Error for InputError {}

impl InputError {
    pub fn path(&self) -> &Path {
        match self {
            InputError::Missing { path }
            | InputError::DanglingSymlink { path, .. }
            | InputError::SymlinkLoop { path }
            | InputError::Directory { path }
            | InputError::NotRegular { path, .. }
            | InputError::TooLarge { path, .. }
            | InputError::NotUtf8 { path, .. }
            | InputError::Io { path, .. } => path,
        }
    }

    /// The message without the path, for a caller whose own message already names the file.
    pub fn reason(&self) -> String {
        match self {
            InputError::Missing { .. } => "does not exist".into(),
            InputError::DanglingSymlink { target, .. } => {
                format!("is a symlink to {}, which does not exist", target.display())
            }
            InputError::SymlinkLoop { .. } => "is a symlink loop (too many levels of symbolic links)".into(),
            InputError::Directory { .. } => "is a directory, not a file".into(),
            InputError::NotRegular { kind, .. } => format!("is a {kind}, not a regular file"),
            InputError::TooLarge { limit, .. } => format!("is larger than the {limit} limit"),
            InputError::NotUtf8 { offset, .. } => {
                format!("is not UTF-8 text (first bad byte at offset {offset})")
            }
            InputError::Io { reason, .. } => format!("cannot be read: {reason}"),
        }
    }

    /// True when nothing at all is at the path (not even a dangling symlink): the one case an
    /// optional file may be skipped for.
    pub fn is_missing(&self) -> bool {
        matches!(self, InputError::Missing { .. })
    }
}

/// Reads a regular file of at most `limit` bytes as UTF-8 text.
pub fn read_text(path: &Path, limit: Limit) -> Result<String, InputError> {
    let bytes = read_bytes(path, limit)?;
    String::from_utf8(bytes)
        .map_err(|e| InputError::NotUtf8 { path: path.to_path_buf(), offset: e.utf8_error().valid_up_to() })
}

/// Reads a regular file when one is there; `Ok(None)` only when nothing at all is at the path.
/// Anything else at the path (a folder, a FIFO, a dangling link) is an error, not a silent skip.
pub fn read_optional_text(path: &Path, limit: Limit) -> Result<Option<String>, InputError> {
    match read_text(path, limit) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.is_missing() => Ok(None),
        Err(e) => Err(e),
    }
}

/// Reads a regular file of at most `limit` bytes.
pub fn read_bytes(path: &Path, limit: Limit) -> Result<Vec<u8>, InputError> {
    // Checked before opening where a FIFO cannot be opened without blocking until a writer comes;
    // on unix it is opened with O_NONBLOCK and checked once open (a stat less for every file
    // read: a tenth of a rebuild's system calls).
    #[cfg(not(unix))]
    {
        let meta = std::fs::metadata(path).map_err(|e| open_error(path, &e))?;
        check_regular(path, &meta)?;
    }
    let file = open_no_block(path).map_err(|e| open_error(path, &e))?;
    // Checked on the open file: what was opened is what is read, whatever the path holds now.
    let meta = file.metadata().map_err(|e| io_error(path, &e))?;
    check_regular(path, &meta)?;
    let too_large = || InputError::TooLarge { path: path.to_path_buf(), limit };
    if meta.len() > limit.bytes {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // One byte past the limit tells a file that grew after the size check from one that fits.
    file.take(limit.bytes.saturating_add(1)).read_to_end(&mut bytes).map_err(|e| io_error(path, &e))?;
    if u64::try_from(bytes.len()).map_or(true, |n| n > limit.bytes) {
        return Err(too_large());
    }
    Ok(bytes)
}

#[cfg(unix)]
fn open_no_block(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: if a FIFO replaced the file after the check, the open still returns at once
    // (and the second check refuses it). It changes nothing for a regular file.
    std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_no_block(path: &Path) -> io::Result<File> {
    File::open(path)
}

fn check_regular(path: &Path, meta: &Metadata) -> Result<(), InputError> {
    let ft = meta.file_type();
    if ft.is_file() {
        return Ok(());
    }
    if ft.is_dir() {
        return Err(InputError::Directory { path: path.to_path_buf() });
    }
    Err(InputError::NotRegular { path: path.to_path_buf(), kind: kind_of(&ft) })
}

#[cfg(unix)]
fn kind_of(ft: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if ft.is_fifo() {
        "FIFO (named pipe)"
    } else if ft.is_char_device() {
        "character device"
    } else if ft.is_block_device() {
        "block device"
    } else if ft.is_socket() {
        "socket"
    } else {
        "special file"
    }
}

#[cfg(not(unix))]
fn kind_of(_: &std::fs::FileType) -> &'static str {
    "special file"
}

fn open_error(path: &Path, e: &io::Error) -> InputError {
    let path_buf = path.to_path_buf();
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return InputError::SymlinkLoop { path: path_buf };
    }
    if e.kind() == io::ErrorKind::NotFound {
        // A link whose target is missing is there, and saying "does not exist" would send the
        // user looking for the wrong file.
        return match std::fs::read_link(path) {
            Ok(target) => InputError::DanglingSymlink { path: path_buf, target },
            Err(_) => InputError::Missing { path: path_buf },
        };
    }
    io_error(path, e)
}

fn io_error(path: &Path, e: &io::Error) -> InputError {
    let reason = match e.kind() {
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::NotADirectory => "a part of the path is a file, not a directory".to_string(),
        _ => e.to_string(),
    };
    InputError::Io { path: path.to_path_buf(), reason }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn limits_print_in_the_unit_they_were_set_in() {
        assert_eq!(Limit::mib(16).to_string(), "16 MiB");
        assert_eq!(Limit::kib(1).to_string(), "1 KiB");
        assert_eq!(Limit { bytes: 1000 }.to_string(), "1000 bytes");
    }

    #[test]
    fn a_file_one_byte_over_the_limit_is_refused_and_one_at_it_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, [b'a'; 11]).unwrap();
        let err = read_text(&path, Limit { bytes: 10 }).unwrap_err();
        assert!(matches!(err, InputError::TooLarge { .. }), "{err}");
        assert!(err.to_string().contains("larger than the 10 bytes limit"), "{err}");
        assert_eq!(read_text(&path, Limit { bytes: 11 }).unwrap().len(), 11);
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fifo");
        let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path that outlives the call.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = read_text(&path, CONFIG_LIMIT).unwrap_err();
        assert!(err.to_string().contains("FIFO"), "{err}");
    }

    #[test]
    fn dev_zero_is_refused_as_a_device_not_read_forever() {
        let err = read_text(Path::new("/dev/zero"), CONFIG_LIMIT).unwrap_err();
        assert!(matches!(err, InputError::NotRegular { kind: "character device", .. }), "{err}");
    }

    #[test]
    fn a_folder_a_loop_and_a_dangling_link_each_say_what_they_are() {
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("config.json");
        std::fs::create_dir(&folder).unwrap();
        assert!(matches!(read_text(&folder, CONFIG_LIMIT), Err(InputError::Directory { .. })));
        let lp = dir.path().join("loop");
        std::os::unix::fs::symlink("loop", &lp).unwrap();
        assert!(matches!(read_text(&lp, CONFIG_LIMIT), Err(InputError::SymlinkLoop { .. })));
        let dangling = dir.path().join("dangling");
        std::os::unix::fs::symlink("nowhere", &dangling).unwrap();
        let err = read_text(&dangling, CONFIG_LIMIT).unwrap_err();
        assert!(err.to_string().contains("symlink to nowhere, which does not exist"), "{err}");
        let missing = dir.path().join("missing");
        assert!(read_optional_text(&missing, CONFIG_LIMIT).unwrap().is_none());
        assert!(read_optional_text(&dangling, CONFIG_LIMIT).is_err());
    }

    #[test]
    fn bytes_that_are_not_utf8_name_the_offset() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"ab\xffcd").unwrap();
        let err = read_text(&path, CONFIG_LIMIT).unwrap_err();
        assert_eq!(err, InputError::NotUtf8 { path, offset: 2 });
    }
}
