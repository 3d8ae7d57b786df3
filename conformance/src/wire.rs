//! The adapter protocol's fixed numbers (`conformance/PROTOCOL.md`): its versions,
//! its operations, and the longest line either side reads. A leaf that every side
//! of the protocol may use (the runner, the adapter driver, the served reference,
//! the reference's answer bound) without using one another.

/// The protocol version spoken here, offered first in `start`. Version 2 added the
/// `crashed` result.
pub const PROTOCOL_VERSION: u64 = 2;

/// The oldest version still read: offered in a second `start`, to a new process,
/// when an adapter refuses [`PROTOCOL_VERSION`]. A version 1 adapter has no
/// `crashed` result; its reports say so.
pub const OLDEST_PROTOCOL: u64 = 1;

/// The operations of the first vector format, in its order; an adapter whose
/// `start` answer lists no `operations` supports these five. Later operations
/// (`read-array`, `resolve-chain`, `resolve-grid`) reach only adapters that list them.
pub const OPERATIONS: [&str; 5] = ["resolve", "encode", "decode", "map-index", "map-region"];

/// Every operation of the vector format, in its order.
pub const ALL_OPERATIONS: [&str; 8] = [
    "resolve",
    "encode",
    "decode",
    "map-index",
    "map-region",
    "read-array",
    "resolve-chain",
    "resolve-grid",
];

/// The longest request line the served reference reads, in bytes (the newline not
/// counted): the size of the largest vector file. A longer line is discarded as
/// it streams in, never buffered whole.
pub const MAX_LINE_BYTES: usize = 16 << 20;
