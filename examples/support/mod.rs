//! What the measuring examples (`strength`, `reach`) share.

use orrery::games::GameKind;

/// The game systems `--game` names: a key, a comma-separated list of
/// keys, or `all`.
pub fn kinds(arg: &str) -> anyhow::Result<Vec<GameKind>> {
    if arg == "all" {
        return Ok(GameKind::ALL.to_vec());
    }
    arg.split(',')
        .map(|k| GameKind::from_key(k.trim()).ok_or_else(|| anyhow::anyhow!("unknown game `{k}`")))
        .collect()
}
