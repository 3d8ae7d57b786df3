//! The configurations benchmark 4 resolves, the same on both sides of the comparison
//! with zarrs, so that the two runs measure the same work.

use serde_json::{Value, json};

/// `(name, configuration, A_shape)` for each configuration benchmark 4 resolves.
pub fn resolution_configurations() -> Vec<(&'static str, Value, Vec<u64>)> {
    vec![
        (
            "spec [[0,1],[2],3]",
            json!({"shape": [[0, 1], [2], 3]}),
            vec![100, 50, 64, 3],
        ),
        (
            "[[0,1],[2]]",
            json!({"shape": [[0, 1], [2]]}),
            vec![256, 256, 256],
        ),
        ("[-1]", json!({"shape": [-1]}), vec![256, 256, 256]),
        (
            "[[0],[1,2]]",
            json!({"shape": [[0], [1, 2]]}),
            vec![256, 256, 256],
        ),
        ("[4,-1,2]", json!({"shape": [4, -1, 2]}), vec![8, 16, 32]),
        // The same B_shape as [[0,1],[2]] from sizes alone: no input-dims rule to check.
        (
            "[65536,256]",
            json!({"shape": [65536, 256]}),
            vec![256, 256, 256],
        ),
    ]
}
