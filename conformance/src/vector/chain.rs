//! The `resolve-chain` operation: a whole `codecs` list (in place of a
//! `configuration` or `codec`) and the array's `data_type`.

use serde_json::{Map, Value};

use super::members::{DataTypeName, member};
use super::{CodecJson, Fault, Operation, fault};

/// The codec member of a case: `configuration` or `codec`, or for `resolve-chain`
/// (and only there) `codecs`.
pub(super) fn codec(case: &Map<String, Value>, operation: &str) -> Result<CodecJson, Fault> {
    let chain = operation == "resolve-chain";
    match (
        case.get("configuration"),
        case.get("codec"),
        case.get("codecs"),
    ) {
        (Some(configuration), None, None) if !chain => {
            Ok(CodecJson::Configuration(configuration.clone()))
        }
        (None, Some(codec), None) if !chain => Ok(CodecJson::Codec(codec.clone())),
        (None, None, Some(codecs)) if chain => Ok(CodecJson::Chain(codecs.clone())),
        (None, None, None) if chain => Err(fault(
            "/codecs",
            "is missing: resolve-chain needs the codec chain",
        )),
        _ if chain => Err(fault(
            "",
            "resolve-chain takes codecs, not configuration or codec",
        )),
        (_, _, Some(_)) => Err(fault("/codecs", "only resolve-chain takes codecs")),
        _ => Err(fault("", "needs exactly one of configuration and codec")),
    }
}

/// The operation, with its `data_type`.
pub(super) fn operation(case: &Map<String, Value>) -> Result<Operation, Fault> {
    let data_type: DataTypeName = member(
        case,
        "data_type",
        "resolve-chain needs the array's data type",
        false,
    )?;
    Ok(Operation::ResolveChain {
        data_type: data_type.0,
    })
}
