//! What the book's UCI options (declared in `engine::options`) set.

use std::path::Path;
use std::sync::Arc;

use super::BookOptions;
use super::polyglot::file::Book;

pub const DEFAULT_DEPTH: u32 = 255;

/// `BookFile`'s value for "no book".
pub const NO_BOOK: &str = "<empty>";

impl BookOptions {
    /// Loads the book at `path` (none for an empty path or `<empty>`). A book
    /// that cannot be read is an error and leaves no book loaded.
    pub fn load(&mut self, path: &str) -> Result<(), String> {
        self.book = None;
        if !path.is_empty() && path != NO_BOOK {
            self.book = Some(Arc::new(Book::load(Path::new(path))?));
        }
        Ok(())
    }
}
