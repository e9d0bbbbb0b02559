//! Reading and writing `.bin` books: entries sorted by key, 16 bytes each.

use std::path::Path;

use super::{ENTRY_BYTES, Entry};

/// A book held in memory (books are a few MB at most).
#[derive(Clone, Default)]
pub struct Book {
    entries: Vec<Entry>,
}

/// The size only: the engine's options are printed whole in tests.
impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Book({} entries)", self.entries.len())
    }
}

impl Book {
    /// Reads a book. Its size must be a whole number of entries; entries
    /// out of key order are sorted rather than refused.
    pub fn load(path: &Path) -> Result<Self, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read book {}: {e}", path.display()))?;
        Self::from_bytes(&bytes).map_err(|e| format!("book {}: {e}", path.display()))
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        // An empty book is valid: `book build` writes one when no move has
        // enough games.
        if !bytes.len().is_multiple_of(ENTRY_BYTES) {
            return Err(format!(
                "not a Polyglot book: {} bytes is not a multiple of {ENTRY_BYTES}",
                bytes.len()
            ));
        }
        let mut entries: Vec<Entry> = bytes
            .chunks_exact(ENTRY_BYTES)
            .filter_map(|c| c.try_into().ok().map(Entry::from_bytes))
            .collect();
        if !entries.is_sorted_by_key(|e| e.key) {
            entries.sort_by_key(|e| e.key);
        }
        Ok(Self { entries })
    }

    pub fn from_entries(mut entries: Vec<Entry>) -> Self {
        entries.sort_by_key(|e| e.key);
        Self { entries }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries with this key, in the book's order.
    pub fn entries(&self, key: u64) -> &[Entry] {
        let start = self.entries.partition_point(|e| e.key < key);
        let len = self.entries[start..].partition_point(|e| e.key == key);
        &self.entries[start..start + len]
    }

    /// Writes the book (to a temporary file first, so a failed write leaves
    /// no half book under the final name).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let bytes: Vec<u8> = self.entries.iter().flat_map(|e| e.to_bytes()).collect();
        let tmp = path.with_extension("bin.tmp");
        std::fs::write(&tmp, bytes)
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write book {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_sizes_are_refused_and_lookups_find_runs() {
        assert!(Book::from_bytes(&[]).unwrap().is_empty());
        assert!(Book::from_bytes(&[0; 17]).is_err());
        let e = |key, weight| Entry {
            key,
            raw_move: 1,
            weight,
            learn: 0,
        };
        let book = Book::from_entries(vec![e(5, 1), e(3, 1), e(5, 2), e(9, 1)]);
        let bytes: Vec<u8> = [e(9, 1), e(5, 1)]
            .iter()
            .flat_map(|x| x.to_bytes())
            .collect();
        let read = Book::from_bytes(&bytes).unwrap();
        assert_eq!(read.entries(5), &[e(5, 1)]);
        assert_eq!(book.entries(5).len(), 2);
        assert!(book.entries(4).is_empty() && book.entries(10).is_empty());
        assert_eq!(book.entries(9), &[e(9, 1)]);
    }
}
