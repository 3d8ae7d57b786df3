//! The class of a generated case's own operand fault (an array of the wrong shape
//! for encode, an index or box outside the decoded array), apart from its codec:
//! where both are wrong the spec sets no order of checks (reading I-8), so either
//! class conforms.

use serde_json::json;

use crate::answer::Answer;
use crate::reference;
use crate::vector::{Case, Operation, parse_case};

/// The class the reference gives the case's operand on a codec that resolves on
/// every decoded shape without a zero extent (`[-1]`); `None` when the operand is
/// sound, or cannot be judged without the case's own `B_shape` (decode).
#[must_use]
pub fn operand_class(case: &Case) -> Option<String> {
    let judged = matches!(
        case.operation,
        Operation::Encode(_) | Operation::MapIndex(_) | Operation::MapRegion { .. }
    );
    if !judged || case.decoded_shape.contains(&0) {
        return None;
    }
    let mut json = case.json.clone();
    let object = json.as_object_mut()?;
    object.remove("codec");
    object.insert("configuration".into(), json!({"shape": [-1]}));
    let sound = parse_case(&json).ok()?;
    match reference::run(&sound) {
        Answer::Error { class, .. } => class,
        _ => None,
    }
}
