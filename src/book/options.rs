//! The book's UCI options, declared and applied apart from the others so
//! that `uci::options` needs only to chain them in.

use std::path::Path;
use std::sync::Arc;

use super::BookOptions;
use super::polyglot::file::Book;
use crate::uci::options::{Kind, UciOption, Value};

pub const DEFAULT_DEPTH: u32 = 255;

/// `BookFile`'s value for "no book".
pub const NO_BOOK: &str = "<empty>";

pub const OPTIONS: &[UciOption] = &[
    UciOption {
        name: "OwnBook",
        kind: Kind::Check { default: false },
    },
    UciOption {
        name: "BookFile",
        kind: Kind::Text { default: NO_BOOK },
    },
    UciOption {
        name: "BookDepth",
        kind: Kind::Spin {
            default: DEFAULT_DEPTH as i64,
            min: 0,
            max: 1000,
        },
    },
    UciOption {
        name: "BookBestMove",
        kind: Kind::Check { default: false },
    },
];

/// Applies a validated book option; `Ok(false)` when `name` is not one.
/// A book that cannot be read is an error and leaves no book loaded.
pub fn apply(book: &mut BookOptions, name: &str, value: &Value) -> Result<bool, String> {
    match (name, value) {
        ("OwnBook", Value::Bool(b)) => book.own_book = *b,
        ("BookFile", Value::Text(path)) => {
            book.book = None;
            if !path.is_empty() && path != NO_BOOK {
                book.book = Some(Arc::new(Book::load(Path::new(path))?));
            }
        }
        ("BookDepth", Value::Int(v)) => book.depth = *v as u32,
        ("BookBestMove", Value::Bool(b)) => book.best_move = *b,
        _ => return Ok(false),
    }
    Ok(true)
}
