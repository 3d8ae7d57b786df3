//! JSON text read for the `*_json_str` entry points.
//!
//! Interim: the text is parsed into a `serde_json::Value`, exact only where the
//! build has serde_json's `arbitrary_precision`. The next step keeps each
//! number's text in a tree of our own.

use serde_json::Value;

use crate::error::{ReshapeError, Result};
use crate::limits;

/// JSON text, parsed.
pub(crate) struct Json;

impl Json {
    /// Parses `text`, the `container` (`configuration` or `codec object`).
    pub(crate) fn from_text(text: &str, container: &'static str) -> Result<Value> {
        if text.len() > limits::MAX_JSON_TEXT_LEN {
            return Err(ReshapeError::ConfigurationTooLarge {
                what: format!("the JSON text of the {container}, in bytes,"),
                found: text.len(),
                limit: limits::MAX_JSON_TEXT_LEN,
            });
        }
        serde_json::from_str(text).map_err(|error| ReshapeError::NotJson {
            container,
            message: error.to_string(),
        })
    }
}
