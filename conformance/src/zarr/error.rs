//! The reader's error: a class of the suite's closed set, or "not implemented
//! by this reader" (no verdict on the array).

use std::fmt;

use zarr_reshape::{ErrorClass, ReshapeError};

/// Why an array cannot be opened or read, with the class it gives; or that this
/// reader stopped at a codec it does not implement ([`Self::is_unsupported`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZarrError {
    /// The error class (`spec-cases/README.md`); for an unsupported codec,
    /// `malformed-configuration`, which no answer reports (see [`Self::is_unsupported`]).
    pub class: ErrorClass,
    /// For people.
    pub message: String,
    /// Set when the reader stopped at a codec it does not implement.
    pub(super) unsupported: bool,
}

impl ZarrError {
    /// An error of `class`.
    pub fn new(class: ErrorClass, message: impl Into<String>) -> Self {
        Self {
            class,
            message: message.into(),
            unsupported: false,
        }
    }

    /// A `malformed-configuration` error: what this reader cannot open or read.
    pub fn malformed(message: impl Into<String>) -> Self {
        Self::new(ErrorClass::MalformedConfiguration, message)
    }

    /// The reader stopped at a codec it does not implement, in a chain that may
    /// well be valid: no verdict (the reference answers `skipped`, with `message`).
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self {
            unsupported: true,
            ..Self::malformed(message)
        }
    }

    /// Whether this is no verdict on the array but a codec this reader does not
    /// implement: answered `skipped`, never as an error of class [`Self::class`].
    #[must_use]
    pub fn is_unsupported(&self) -> bool {
        self.unsupported
    }
}

impl fmt::Display for ZarrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.unsupported {
            return write!(f, "not implemented by this reader: {}", self.message);
        }
        write!(f, "{}: {}", self.class, self.message)
    }
}

impl std::error::Error for ZarrError {}

impl From<ReshapeError> for ZarrError {
    fn from(error: ReshapeError) -> Self {
        Self::new(error.class(), format!("reshape codec: {error}"))
    }
}

/// A `u64` as `usize`.
pub(crate) fn usize_of(value: u64) -> Result<usize, ZarrError> {
    usize::try_from(value).map_err(|_| {
        ZarrError::new(
            ErrorClass::Overflow,
            format!("{value} does not fit in usize"),
        )
    })
}
