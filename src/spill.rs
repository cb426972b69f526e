//! Records a build keeps of each model until the site is made, on disk instead of in memory.
//!
//! Every model's summary, its cache entry and the ends of its files are needed after all models
//! are planned (the sibling lists, the family pages, the index, the next cache), so a build that
//! held them kept about 2.6 kB per model resident (a 10,000-model build: 81 MiB against 60 at
//! 5,000). Written here as they are made and read back when needed, they leave a build's memory
//! flat in the number of models: what stays in memory is a place in the file per model.
//!
//! Records are postcard: compact, fast to decode (a summary is read about a dozen times a build),
//! and a float comes back as the bits it was written with, so a page rendered from a record is
//! byte for byte the page rendered from the value.

use std::fs::File;
use std::sync::Mutex;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Where a record is in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub offset: u64,
    pub len: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum SpillError {
    #[error("the build's scratch file: {0}")]
    Io(#[from] std::io::Error),
    #[error("a record of the build's scratch file or cache: {0}")]
    Format(#[from] postcard::Error),
    #[error("a record of {0} bytes: more than a record may hold")]
    TooLong(usize),
}

/// A file of records, appended to from any thread and read back from any thread.
#[derive(Debug)]
pub struct Spill {
    file: File,
    /// Where the next record goes; held while it is written, so records never overlap.
    end: Mutex<u64>,
}

impl Spill {
    /// Records in `file`, appended from its start (an empty scratch file).
    pub fn new(file: File) -> Self {
        Spill { file, end: Mutex::new(0) }
    }

    /// Records already in `file` (of `len` bytes), read only.
    pub fn existing(file: File, len: u64) -> Self {
        Spill { file, end: Mutex::new(len) }
    }

    pub fn put<T: Serialize + ?Sized>(&self, value: &T) -> Result<Slot, SpillError> {
        let bytes = postcard::to_stdvec(value)?;
        self.put_bytes(&bytes)
    }

    pub fn put_bytes(&self, bytes: &[u8]) -> Result<Slot, SpillError> {
        let len = u32::try_from(bytes.len()).map_err(|_| SpillError::TooLong(bytes.len()))?;
        let mut end = self.end.lock().unwrap_or_else(|e| e.into_inner());
        let offset = *end;
        write_at(&self.file, bytes, offset)?;
        *end += u64::from(len);
        Ok(Slot { offset, len })
    }

    pub fn get<T: DeserializeOwned>(&self, slot: Slot) -> Result<T, SpillError> {
        Ok(postcard::from_bytes(&self.bytes(slot)?)?)
    }

    /// The first value of a record that holds several in a row (postcard writes a struct's
    /// fields one after the other): a cache entry's summary without the rest of the entry.
    pub fn get_first<T: DeserializeOwned>(&self, slot: Slot) -> Result<T, SpillError> {
        Ok(postcard::take_from_bytes(&self.bytes(slot)?)?.0)
    }

    pub fn bytes(&self, slot: Slot) -> Result<Vec<u8>, SpillError> {
        let mut buf = vec![0; slot.len as usize];
        read_at(&self.file, &mut buf, slot.offset)?;
        Ok(buf)
    }
}

#[cfg(unix)]
fn write_at(file: &File, bytes: &[u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, offset)
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn write_at(file: &File, mut bytes: &[u8], mut offset: u64) -> std::io::Result<()> {
    while !bytes.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_write(file, bytes, offset)?;
        if n == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        bytes = &bytes[n..];
        offset += n as u64;
    }
    Ok(())
}

#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_read(file, buf, offset)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        buf = &mut buf[n..];
        offset += n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_come_back_as_written_whatever_the_thread_and_floats_to_the_bit() {
        let spill = Spill::new(tempfile::tempfile().unwrap());
        // A value whose shortest decimal form would not survive a careless round trip.
        let x = 0.1f64 + 0.2;
        let slots: Vec<(usize, Slot)> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|t| {
                    let spill = &spill;
                    s.spawn(move || {
                        (0..50)
                            .map(|i| (t * 50 + i, spill.put(&(t * 50 + i, "model", x)).unwrap()))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(slots.len(), 200);
        for (i, slot) in slots {
            let (j, name, y): (usize, String, f64) = spill.get(slot).unwrap();
            assert_eq!((j, name.as_str()), (i, "model"));
            assert_eq!(y.to_bits(), x.to_bits());
        }
    }

    #[test]
    fn the_first_field_of_a_record_reads_alone() {
        let spill = Spill::new(tempfile::tempfile().unwrap());
        let slot = spill.put(&("summary", vec![1u8, 2, 3], 7u64)).unwrap();
        assert_eq!(spill.get_first::<String>(slot).unwrap(), "summary");
    }

    #[test]
    fn a_slot_past_the_end_is_an_error_not_a_panic() {
        let spill = Spill::new(tempfile::tempfile().unwrap());
        spill.put(&1u8).unwrap();
        assert!(spill.get::<u8>(Slot { offset: 10, len: 4 }).is_err());
    }
}
