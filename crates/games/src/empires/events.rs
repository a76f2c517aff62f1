//! The past-tense events of a game of Space Empires 4X, and `apply`, the
//! one place the state changes. Events are facts already checked: `apply`
//! never fails and never decides. Events that drew from the game's RNG
//! carry the generator as it is after the draw, and the dice they rolled,
//! so replaying the log reproduces the game bit for bit.

use super::basics::{Dir, Kind, Label, Levels, Marker, Tech, TurnNo, Worth};
use super::map::Board;
use super::state::battle::{Action as BattleAction, Battle, Carried, Side, Standing, Target};
use super::state::{Colony, Empire, Line, Machine, Options, Phase, Spot, State, Unit};
use orrery_engine::{GameRng, Hex, OrderSheet, Outcome, Seat, SheetEvent};
use serde::{Deserialize, Serialize};

/// What a player's Economic Phase came to (private to that player, except
/// the bid, revealed with every bid at the end).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ledger {
    pub seat: Seat,
    pub colony_income: u32,
    pub mineral_income: u32,
    /// Colonies joined to the homeworld by MS Pipelines (advanced rule
    /// 10.1.2).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub trade_income: u32,
    pub maintenance: u32,
    pub bid: u32,
    /// Research, equipment and purchases.
    pub spent: u32,
    /// CP carried over to the next phase (at most 30).
    pub carried: u32,
    /// CP lost to the cap.
    pub lost: u32,
    /// Levels after the phase (research and wrecks).
    pub levels: Levels,
    /// Space Wrecks rolled: (d10, the free level's category).
    pub wrecks: Vec<(u32, Tech)>,
    /// Counters scrapped.
    pub scrapped: Vec<Label>,
    /// Of `scrapped`, the Raiders: told to their owner only (advanced rule
    /// 12.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unseen: Vec<Label>,
    /// Bases and Ship Yards scrapped, by hex.
    pub scrapped_at: Vec<(Hex, Kind)>,
    /// New counters: groups, decoys, Colony Ships and Miners.
    pub bought: Vec<Unit>,
    /// Ships added to existing groups: (group, ships).
    pub added: Vec<(Label, u32)>,
    /// Bases and Ship Yards bought, by hex.
    pub built: Vec<(Hex, Kind)>,
    /// CP spent on research (text 18), grants included.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub research: u32,
    /// Unpredictable research: grants bought (text 19.3) …
    #[serde(default, skip_serializing_if = "is_zero")]
    pub grants: u32,
    /// … and each category's dice (text 19.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rolls: Vec<Rolled>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Unpredictable research: one category's grants rolled (text 19.2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rolled {
    pub tech: Tech,
    /// A d10 per grant.
    pub dice: Vec<u32>,
    /// The sum so far towards the level, this phase's dice included.
    pub total: u32,
    /// The level's cost.
    pub needed: u32,
    /// The level was reached (the surplus is wasted).
    pub reached: bool,
}

/// Why units were destroyed outside a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Doom {
    /// Enemy unarmed units (or decoys) alone in a hex an armed ship entered.
    Overrun,
    /// Danger! (text 6.4).
    Danger,
    /// Scuttled by their owner (text 7.3.2).
    Scrapped,
    /// A battle was lost by their side (Colony Ships and Miners, text 5.4).
    BattleLost,
}

/// Past-tense facts. The log stores these; the state is their fold.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Event {
    /// The game was set up: the map with every marker face down, the
    /// starting forces, the first round's player order.
    SetUp {
        players: u8,
        options: Options,
        board: Box<Board>,
        spots: Vec<Spot>,
        colonies: Vec<Colony>,
        units: Vec<Unit>,
        empires: Vec<Empire>,
        order: Vec<Seat>,
        rng: Box<GameRng>,
    },
    /// A round began with this player order.
    RoundBegan {
        round: u32,
        order: Vec<Seat>,
    },
    /// A turn (1, 2, 3) began.
    TurnBegan {
        turn: TurnNo,
    },
    /// A player's movement phase began. Their revealed counters at their
    /// colonies were turned face down (`hidden`), and every face-down
    /// counter of theirs in those hexes drew a new label (`relabelled`:
    /// old, new).
    MovementBegan {
        seat: Seat,
        hidden: Vec<Label>,
        relabelled: Vec<(Label, Label)>,
        rng: Box<GameRng>,
    },
    /// Counters moved together along `path` (the hexes entered, in order);
    /// `stopped`: their move ended there. `shown`: the Move levels others
    /// learned (text 9.9).
    Moved {
        units: Vec<Label>,
        path: Vec<Hex>,
        stopped: bool,
        shown: Vec<(Label, u32)>,
        /// Of `units`, those that began this movement phase on a chain of
        /// their owner's MS Pipelines and have moved only along it (advanced
        /// rule 10.1.2): one hex more along it.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        piped: Vec<Label>,
        /// Players the move is not told to: the units are Raiders cloaked
        /// against them all along it (advanced rule 12.1).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hidden_from: Vec<Seat>,
    },
    /// A unit took the extra hex of a chain of MS Pipelines: the chain's
    /// pipelines may not move this turn (advanced rule 10.1.2).
    PipelinesHeld {
        pipelines: Vec<Label>,
    },
    /// The active player's Minesweepers at `at` removed mines before they
    /// could detonate: per Mines counter, the mines removed (advanced rule
    /// 13.2). Every counter there is face up (technology is revealed).
    MinesSwept {
        at: Hex,
        swept: Vec<(Label, u32)>,
    },
    /// The active player's ships are in `owner`'s minefield at `at`, and
    /// `owner` chooses what the mines destroy (advanced rule 13.1.4). Every
    /// counter there is face up.
    MinefieldEntered {
        at: Hex,
        owner: Seat,
    },
    /// One mine of `mine` detonated and destroyed one ship of `target` (a
    /// `kind`) (advanced rule 13.1.4).
    MineDetonated {
        at: Hex,
        mine: Label,
        target: Label,
        kind: Kind,
        /// A Carrier destroyed: Fighter Squadrons the other Carriers there
        /// have no room for, lost with it, as (counter, squadrons) (text
        /// 13.1.4).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        lost: Vec<(Label, u32)>,
    },
    /// The mines at `at` have done what they must; the battle there, if
    /// any, follows.
    MinefieldCleared {
        at: Hex,
    },
    /// Units destroyed outside a battle (`kinds`: what each was, told to
    /// others only when the rules show it: an overrun).
    Destroyed {
        at: Hex,
        units: Vec<Label>,
        kinds: Vec<Kind>,
        why: Doom,
        /// Players not told: a cloaked Raider scrapped unseen by them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hidden_from: Vec<Seat>,
    },
    /// Ships entering (or found in) a Black Hole rolled: per counter its
    /// dice; a die of 7-10 destroyed one ship (text 6.3).
    BlackHoleRolled {
        at: Hex,
        rolls: Vec<(Label, Vec<u32>)>,
        rng: Box<GameRng>,
        /// With a sling shot (optional rule 15.2): +2 to each die, and the
        /// survivors may move one hex more this turn.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        slingshot: bool,
    },
    /// `ships` ships left group `from` as a new counter `new`.
    Split {
        from: Label,
        new: Label,
        ships: u32,
        rng: Box<GameRng>,
        /// Players not told: a cloaked Raider group unseen by them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hidden_from: Vec<Seat>,
    },
    /// Group `from` joined group `into`.
    Merged {
        from: Label,
        into: Label,
        /// Players not told: cloaked Raider groups unseen by them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        hidden_from: Vec<Seat>,
    },
    /// A Colony Ship began a colony (now, or `queued` for the end of the
    /// combat phase, if the hex is then free of enemies).
    Colonized {
        unit: Label,
        at: Hex,
        barren: bool,
    },
    ColonizeQueued {
        unit: Label,
        at: Hex,
    },
    /// A queued colonization could not be carried out (the hex was not won).
    ColonizeDropped {
        unit: Label,
        at: Hex,
    },
    /// A Miner took the marker of its hex in tow.
    Towed {
        miner: Label,
        at: Hex,
        marker: Marker,
    },
    /// A Miner left its marker at a colony of its owner.
    Deposited {
        miner: Label,
        at: Hex,
        marker: Marker,
    },
    /// A player looked at the face-down marker of `at` (the marker is told
    /// to that player alone; others learn the hex).
    Peeked {
        seat: Seat,
        unit: Label,
        at: Hex,
        marker: Marker,
    },
    /// A group began an upgrade at a yard, paying `cost` CP.
    UpgradeOrdered {
        unit: Label,
        cost: u32,
    },
    /// Upgrades finished at the end of the turn (`done`), or lost (`lost`).
    UpgradesEnded {
        done: Vec<(Label, Levels)>,
        lost: Vec<Label>,
    },
    /// A Base or Ship Yard (one) was scuttled.
    InstallationScrapped {
        at: Hex,
        what: Kind,
        /// Its owner, when it was still face down (text 7.6.2): only they
        /// learn of it. Absent in logs written before 7.6.2 was followed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        secret_of: Option<Seat>,
    },
    /// The active player ended their movement.
    MovementEnded {
        seat: Seat,
    },
    /// The active player ordered their cloaked Raiders at `at`, unseen
    /// there, to attack in this turn's combat phase (advanced rule 12.1.2;
    /// told to that player only).
    AmbushOrdered {
        seat: Seat,
        at: Hex,
    },
    /// The active player's combat phase began; `hexes`: where battles and
    /// colony fire are due, in hex-name order.
    CombatBegan {
        seat: Seat,
        hexes: Vec<Hex>,
    },
    /// A battle began at `at`: decoys removed and shown (`decoys`), every
    /// counter turned face up.
    BattleBegan {
        at: Hex,
        defender: Seat,
        decoys: Vec<Label>,
        battle: Box<Battle>,
    },
    /// The damaged ship of fighter `fighter` was split off into a separate
    /// group `new` (a new counter) to be screened (text 5.6).
    DamagedSplit {
        fighter: usize,
        new: Label,
        said: String,
        rng: Box<GameRng>,
    },
    /// A ship count of a group noted for screening (committed with
    /// `Fought { Screen }` when the side is done or fires).
    ScreenNoted {
        target: Target,
        ships: u32,
    },
    /// One answer in the battle (screening, a volley, holding), with the
    /// dice it rolled, one per ship that fired, in order.
    Fought {
        action: BattleAction,
        dice: Vec<u32>,
        /// The public account, worked out when it was decided.
        said: String,
        rng: Box<GameRng>,
    },
    /// Ships of fighter `fighter` retreated to `to` (`new`: the counter
    /// they form when part of a group retreats).
    Retreated {
        fighter: usize,
        ships: u32,
        to: Hex,
        new: Option<Label>,
        said: String,
        rng: Box<GameRng>,
        /// Fighter Squadrons that left on the retreating Carriers (advanced
        /// rule 11.1.2).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        carried: Vec<Carried>,
    },
    /// The battle at `at` ended; `winner`'s units hold the hex; the loser's
    /// Colony Ships and Miners there were destroyed (`lost`).
    BattleEnded {
        at: Hex,
        winner: Seat,
        lost: Vec<Label>,
        /// The aliens won it (`winner` is then the player who chose their
        /// targets): they hold the hex (advanced rule 14).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        aliens: bool,
        /// Doomsday Machine `n` won it: it holds the hex (optional rule 17).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        machine: Option<u8>,
    },
    /// A deep-space Barren Planet turned face up at `at` with aliens on it
    /// (advanced rule 14.1): `aliens`, the markers drawn; `hidden`: placed
    /// face down (found by a Cruiser's look).
    AliensFound {
        at: Hex,
        aliens: Vec<Kind>,
        hidden: bool,
        rng: Box<GameRng>,
    },
    /// Doomsday Machine `number` is on the map at `at` (optional rule
    /// 17.1): its marker was turned face up there, or, in solitaire, it
    /// arrived (`arrived`; rules page, *Solitaire*).
    MachineFound {
        number: u8,
        at: Hex,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        arrived: bool,
    },
    /// Doomsday Machine `number` moved from `from` through `path` (the
    /// hexes entered; empty: it stayed) after every player's turn (17.3);
    /// the Mines counters in those hexes (`mines`) detonated without
    /// harming it (17.2).
    MachineMoved {
        number: u8,
        from: Hex,
        path: Vec<Hex>,
        mines: Vec<Label>,
        rng: Box<GameRng>,
    },
    /// Doomsday Machine `number` destroyed the planet or asteroids at `at`
    /// (`marker`; none for a homeworld) with the colony there, if any
    /// (`colony`: its owner) (17.4).
    WorldDestroyed {
        number: u8,
        at: Hex,
        marker: Option<Marker>,
        colony: Option<Seat>,
    },
    /// An armed group fired at the enemy colony of `at` (`dice` one per
    /// ship); the colony is now `worth` (`None`: destroyed).
    ColonyFired {
        at: Hex,
        unit: Label,
        dice: Vec<u32>,
        worth: Option<Worth>,
        rng: Box<GameRng>,
    },
    /// The attacker turns to the enemy colony at `at` (no battle there).
    ColonyFireBegan {
        at: Hex,
    },
    /// A group of the attacker will not fire at the colony of `at`.
    ColonyHeld {
        at: Hex,
        unit: Label,
    },
    /// The attacker is done with the colony at `at` for this combat phase.
    ColonyFireEnded {
        at: Hex,
    },
    /// A face-down marker was turned face up (exploration, or a peek
    /// shown to all); one-time markers are removed (`removed`).
    Explored {
        at: Hex,
        marker: Marker,
        removed: bool,
    },
    /// A Super Nova sent each unit back where it came from.
    SentBack {
        moves: Vec<(Label, Hex)>,
    },
    /// Lost in Space: `shifter` owes the direction for the stack at `at`.
    LostOwed {
        shifter: Seat,
        at: Hex,
    },
    /// The stack at `at` was shifted one hex (`rng`: after a direction
    /// drawn at the deadline).
    Shifted {
        at: Hex,
        dir: Dir,
        to: Hex,
        rng: Box<GameRng>,
    },
    /// The active player's turn ended.
    PlayerTurnEnded {
        seat: Seat,
    },
    /// The Economic Phase began: every player owes a sheet. Space Wrecks
    /// deposited at colonies not blockaded were rolled on the table (each:
    /// its owner, the colony, the d10, the free level's category).
    EconomicBegan {
        round: u32,
        wrecks: Vec<(Seat, Hex, u32, Tech)>,
        rng: Box<GameRng>,
    },
    /// An edit of a seat's economic sheet (private to the seat, but for
    /// readiness).
    Sheet(SheetEvent<Line>),
    /// Every sheet carried out at once (each ledger private to its seat).
    EconomyCarriedOut {
        ledgers: Vec<Ledger>,
        rng: Box<GameRng>,
    },
    /// Colonies grew (text 7.7).
    ColoniesGrew,
    /// The bids, revealed; `winner` chooses the first player.
    BidsRevealed {
        bids: Vec<(Seat, u32)>,
        winner: Seat,
    },
    /// Standing orders set (private).
    StandingSet {
        seat: Seat,
        standing: Standing,
    },
    /// The player resigned (rules page, *Resigning*): their units and
    /// colonies are removed (a colony's planet is free again) and they
    /// leave the player order, their sheet and any choice they owed.
    Resigned {
        seat: Seat,
    },
    /// The game ended; every score revealed.
    GameEnded {
        outcome: Outcome,
        scores: Vec<(Seat, u32)>,
    },
}

impl Event {
    /// The events a player may take back: those that revealed nothing and
    /// drew nothing that matters (a quiet move, a split, a merge). A split
    /// draws its new label from the generator, but taking it back restores
    /// the generator, so splitting again draws the same label: nothing can
    /// be fished for.
    pub fn quiet(&self) -> bool {
        match self {
            Event::Moved { stopped, shown, .. } => !stopped && shown.is_empty(),
            Event::Merged { .. } | Event::Split { .. } | Event::PipelinesHeld { .. } | Event::AmbushOrdered { .. } => {
                true
            }
            _ => false,
        }
    }
}

/// Apply one event.
pub fn apply(s: &mut State, event: &Event) {
    match event {
        Event::SetUp {
            players,
            options,
            board,
            spots,
            colonies,
            units,
            empires,
            order,
            rng,
        } => {
            s.players = *players;
            s.options = options.clone();
            s.board = (**board).clone();
            s.spots = spots.clone();
            s.colonies = colonies.clone();
            s.units = units.clone();
            s.empires = empires.clone();
            s.order = order.clone();
            s.rng = rng.clone();
            s.round = 0;
        }
        Event::RoundBegan { round, order } => {
            s.round = *round;
            s.order = order.clone();
        }
        Event::TurnBegan { turn } => {
            s.turn = *turn;
            s.active = 0;
        }
        Event::MovementBegan {
            seat,
            hidden,
            relabelled,
            rng,
        } => {
            s.active = s.order.iter().position(|x| x == seat).unwrap_or(0);
            s.phase = Phase::Movement;
            s.empires[seat.index()].peeked_now.clear();
            for u in s.units.iter_mut().filter(|u| u.owner() == *seat) {
                u.moved = 0;
                u.slung = false;
                u.piped = false;
                u.stopped = false;
                u.came_from = None;
                u.began_at = None;
                u.peeks = 0;
                if hidden.contains(&u.label) {
                    u.face_up = false;
                }
            }
            relabel(s, relabelled);
            s.rng = rng.clone();
            s.boundaries += 1;
        }
        Event::Moved {
            units,
            path,
            stopped,
            shown,
            piped,
            ..
        } => {
            for label in units {
                if let Some(u) = s.unit_mut(*label) {
                    u.piped = piped.contains(label);
                    if u.moved == 0 && u.began_at.is_none() {
                        u.began_at = Some(u.hex);
                    }
                    let mut prev = u.hex;
                    for h in path {
                        u.came_from = Some(prev);
                        prev = *h;
                    }
                    u.hex = prev;
                    u.moved += path.len() as u32;
                    u.stopped |= *stopped;
                }
            }
            for (label, level) in shown {
                if let Some(u) = s.unit_mut(*label) {
                    u.move_shown = Some(*level);
                }
            }
        }
        Event::MinesSwept { at, swept } => {
            for (label, n) in swept {
                if let Some(u) = s.unit_mut(*label) {
                    u.ships = u.ships.saturating_sub(*n);
                }
            }
            s.units.retain(|u| u.ships > 0);
            for u in s.units.iter_mut().filter(|u| u.hex == *at) {
                u.face_up = true;
            }
        }
        Event::MinefieldEntered { at, owner } => {
            s.phase = Phase::Mines {
                owner: *owner,
                hex: *at,
            };
            for u in s.units.iter_mut().filter(|u| u.hex == *at) {
                u.face_up = true;
            }
        }
        Event::MineDetonated { mine, target, lost, .. } => {
            for label in [mine, target] {
                if let Some(u) = s.unit_mut(*label) {
                    u.ships = u.ships.saturating_sub(1);
                    u.face_up = true;
                }
            }
            for (label, n) in lost {
                if let Some(u) = s.unit_mut(*label) {
                    u.ships = u.ships.saturating_sub(*n);
                }
            }
            s.units.retain(|u| u.ships > 0);
        }
        Event::MinefieldCleared { .. } => s.phase = Phase::Combat,
        Event::PipelinesHeld { pipelines } => {
            for label in pipelines {
                if let Some(u) = s.unit_mut(*label) {
                    u.stopped = true;
                }
            }
        }
        Event::Destroyed { units, .. } => {
            leave_battle(s, units);
            s.units.retain(|u| !units.contains(&u.label));
        }
        Event::BlackHoleRolled {
            rolls, rng, slingshot, ..
        } => {
            for (label, dice) in rolls {
                let lost = dice
                    .iter()
                    .filter(|d| !super::basics::black_hole_survives(**d, *slingshot))
                    .count() as u32;
                if let Some(u) = s.unit_mut(*label) {
                    u.ships = u.ships.saturating_sub(lost);
                    u.slung |= *slingshot;
                }
            }
            s.units.retain(|u| u.ships > 0);
            s.rng = rng.clone();
        }
        Event::Split {
            from, new, ships, rng, ..
        } => {
            if let Some(u) = s.unit_mut(*from) {
                u.ships -= ships;
                let mut part = u.clone();
                part.label = *new;
                part.ships = *ships;
                s.units.push(part);
            }
            s.rng = rng.clone();
        }
        Event::Merged { from, into, .. } => {
            if let Some(i) = s.units.iter().position(|u| u.label == *from) {
                let gone = s.units.remove(i);
                if let Some(u) = s.unit_mut(*into) {
                    u.ships += gone.ships;
                    u.moved = u.moved.max(gone.moved);
                    u.stopped |= gone.stopped;
                    u.face_up |= gone.face_up;
                }
            }
        }
        Event::Colonized { unit, at, barren } => {
            let owner = unit.owner;
            s.queued.retain(|(u, _)| u != unit);
            s.units.retain(|u| u.label != *unit);
            s.colonies.push(Colony {
                hex: *at,
                owner,
                worth: Worth::New,
                barren: *barren,
                yards: 0,
                new_yards: 0,
                base: false,
                deposits: Vec::new(),
                hidden_yards: 0,
                hidden_base: false,
            });
            s.colonies.sort_by_key(|c| Board::name_key(c.hex));
        }
        Event::ColonizeQueued { unit, at } => s.queued.push((*unit, *at)),
        Event::ColonizeDropped { unit, .. } => s.queued.retain(|(u, _)| u != unit),
        Event::Towed { miner, at, marker } => {
            s.spots.retain(|p| p.hex != *at);
            if let Some(u) = s.unit_mut(*miner) {
                u.tow = Some(*marker);
            }
        }
        Event::Deposited { miner, at, marker } => {
            if let Some(u) = s.unit_mut(*miner) {
                u.tow = None;
            }
            if let Some(c) = s.colony_mut(*at) {
                c.deposits.push(*marker);
            }
        }
        Event::Peeked { seat, unit, at, .. } => {
            let e = &mut s.empires[seat.index()];
            if !e.peeked.contains(at) {
                e.peeked.push(*at);
            }
            if !e.peeked_now.contains(at) {
                e.peeked_now.push(*at);
            }
            if let Some(u) = s.unit_mut(*unit) {
                u.peeks += 1;
            }
        }
        Event::UpgradeOrdered { unit, cost } => {
            let owner = unit.owner;
            s.empires[owner.index()].cp -= cost;
            if let Some(u) = s.unit_mut(*unit) {
                u.upgrading = true;
            }
        }
        Event::UpgradesEnded { done, lost } => {
            for (label, levels) in done {
                if let Some(u) = s.unit_mut(*label) {
                    u.levels = *levels;
                    u.upgrading = false;
                }
            }
            for label in lost {
                if let Some(u) = s.unit_mut(*label) {
                    u.upgrading = false;
                }
            }
        }
        Event::InstallationScrapped { at, what, .. } => {
            scuttle_installation(s, *at, *what);
            if let Some(c) = s.colony_mut(*at) {
                c.remove(*what);
            }
        }
        Event::MovementEnded { .. } => {
            for u in &mut s.units {
                u.began_at = None;
                u.piped = false;
            }
        }
        Event::AmbushOrdered { at, .. } => {
            if !s.ambush.contains(at) {
                s.ambush.push(*at);
            }
        }
        Event::CombatBegan { hexes, .. } => {
            s.phase = Phase::Combat;
            s.combat_due = hexes.clone();
            s.ambush.clear();
        }
        Event::BattleBegan {
            at,
            defender,
            decoys,
            battle,
        } => {
            s.units.retain(|u| !decoys.contains(&u.label));
            for u in s.units.iter_mut().filter(|u| u.hex == *at) {
                u.face_up = true;
            }
            if let Some(c) = s.colony_mut(*at) {
                c.reveal();
            }
            if let Some(p) = s.spot_mut(*at) {
                p.aliens_hidden = false;
            }
            s.battle = Some(battle.clone());
            s.defender = Some(*defender);
            s.fighting = Some(*at);
            // A Doomsday Machine's attack after the players' turns: the
            // player it fights answers for its side (none against aliens).
            if let Phase::Doomsday { facing, .. } = &mut s.phase {
                *facing = (!battle.aliens()).then_some(*defender);
            }
            s.screening.clear();
        }
        Event::DamagedSplit { fighter, new, rng, .. } => {
            let mut from = None;
            if let Some(b) = s.battle.as_mut() {
                if let Some(Target::Group(l)) = b.fighters().get(*fighter).map(|f| f.id) {
                    from = b.split_damaged(*fighter, *new).is_ok().then_some(l);
                }
            }
            if let Some(u) = from.and_then(|l| s.unit_mut(l)) {
                let mut part = u.clone();
                u.ships -= 1;
                part.label = *new;
                part.ships = 1;
                s.units.push(part);
            }
            s.rng = rng.clone();
        }
        Event::ScreenNoted { target, ships } => s.screening.push((*target, *ships)),
        Event::Fought { action, dice, rng, .. } => {
            if let Some(b) = s.battle.as_mut() {
                // Checked when decided: replaying it cannot fail.
                let _ = b.act(action, dice);
            }
            if matches!(action, BattleAction::Screen(_)) {
                s.screening.clear();
            }
            s.rng = rng.clone();
            sync_battle(s);
        }
        Event::Retreated {
            fighter,
            ships,
            to,
            new,
            rng,
            carried,
            ..
        } => {
            for c in carried {
                let mut label = None;
                if let Some(b) = s.battle.as_mut() {
                    let f = b.fighter(c.fighter);
                    if let Target::Group(l) = f.id {
                        label = Some((l, f.ships == c.ships));
                    }
                    let _ = b.carry_off(c.fighter, c.ships);
                }
                if let Some((l, whole)) = label {
                    move_off(s, l, whole, c.ships, c.new, *to);
                }
            }
            let mut moved = None;
            if let Some(b) = s.battle.as_mut() {
                let f = b.fighter(*fighter);
                if let Target::Group(label) = f.id {
                    moved = Some((label, f.ships == *ships));
                }
                let _ = b.retreat(*fighter, *ships);
            }
            if let Some((label, whole)) = moved {
                move_off(s, label, whole, *ships, *new, *to);
            }
            s.rng = rng.clone();
            sync_battle(s);
        }
        Event::AliensFound {
            at,
            aliens,
            hidden,
            rng,
        } => {
            if let Some(p) = s.spot_mut(*at) {
                p.aliens = aliens.clone();
                p.aliens_hidden = *hidden;
            }
            s.rng = rng.clone();
            // They attack any ship there, the exploring ship too (14.1).
            let attacker = s.active_seat();
            if s.units_at(*at).any(|u| Some(u.owner()) == attacker) && !s.combat_due.contains(at) {
                s.combat_due.push(*at);
            }
        }
        Event::BattleEnded { at, winner, lost, .. } => {
            sync_battle(s);
            s.units.retain(|u| !lost.contains(&u.label));
            s.battle = None;
            s.defender = None;
            if let Phase::Doomsday { facing, .. } = &mut s.phase {
                *facing = None;
                s.fighting = None;
                return;
            }
            // Colony fire follows at the hex if the attacker won it and an
            // enemy colony is there.
            let attacker = s.active_seat();
            let enemy_colony = s
                .colony(*at)
                .is_some_and(|c| attacker.is_none_or(|a| !s.allied(c.owner, a)));
            if Some(*winner) == attacker && enemy_colony {
                s.fighting = Some(*at);
            } else {
                s.fighting = None;
                s.combat_due.retain(|h| h != at);
            }
        }
        Event::ColonyFired {
            at, unit, worth, rng, ..
        } => {
            match worth {
                Some(w) => {
                    if let Some(c) = s.colony_mut(*at) {
                        c.worth = *w;
                    }
                }
                None => destroy_colony(s, *at),
            }
            s.colony_fired.push(*unit);
            s.rng = rng.clone();
        }
        Event::MachineFound { number, at, .. } => {
            s.machines.push(Machine {
                number: *number,
                hex: *at,
                damage: 0,
            });
            s.machines.sort_by_key(|m| m.number);
            // It attacks the exploring ships at once (17.2).
            let attacker = s.active_seat();
            if s.phase == Phase::Combat
                && s.units_at(*at).any(|u| Some(u.owner()) == attacker)
                && !s.combat_due.contains(at)
            {
                s.combat_due.push(*at);
            }
        }
        Event::MachineMoved {
            number,
            path,
            mines,
            rng,
            ..
        } => {
            if let (Some(m), Some(to)) = (s.machines.iter_mut().find(|m| m.number == *number), path.last()) {
                m.hex = *to;
            }
            s.units.retain(|u| !mines.contains(&u.label));
            s.phase = Phase::Doomsday {
                number: *number,
                facing: None,
            };
            s.rng = rng.clone();
        }
        Event::WorldDestroyed { at, .. } => {
            s.colonies.retain(|c| c.hex != *at);
            s.spots.retain(|p| p.hex != *at);
            s.queued.retain(|(_, h)| h != at);
        }
        Event::ColonyFireBegan { at } => s.fighting = Some(*at),
        Event::ColonyHeld { unit, .. } => s.colony_fired.push(*unit),
        Event::ColonyFireEnded { at } => {
            s.fighting = None;
            s.combat_due.retain(|h| h != at);
        }
        Event::Explored { at, marker, removed } => {
            if *removed {
                s.spots.retain(|p| p.hex != *at);
            } else if let Some(p) = s.spot_mut(*at) {
                p.face_up = true;
                p.marker = *marker;
            }
            for e in s.empires.iter_mut() {
                e.peeked.retain(|h| h != at);
                e.peeked_now.retain(|h| h != at);
            }
        }
        Event::SentBack { moves } => {
            for (label, to) in moves {
                if let Some(u) = s.unit_mut(*label) {
                    u.hex = *to;
                    u.stopped = true;
                }
            }
        }
        Event::LostOwed { shifter, at } => {
            s.phase = Phase::Lost {
                shifter: *shifter,
                hex: *at,
            }
        }
        Event::Shifted { at, to, rng, .. } => {
            s.phase = Phase::Combat;
            let active = s.active_seat();
            for u in s.units.iter_mut().filter(|u| u.hex == *at && Some(u.owner()) == active) {
                u.came_from = Some(*at);
                u.hex = *to;
            }
            s.rng = rng.clone();
        }
        Event::PlayerTurnEnded { .. } => {
            s.colony_fired.clear();
            s.battle = None;
            s.defender = None;
            s.fighting = None;
            s.combat_due.clear();
        }
        Event::EconomicBegan { wrecks, rng, .. } => {
            s.phase = Phase::Economic;
            let playing: Vec<Seat> = s.playing().collect();
            s.sheet = OrderSheet::new(playing);
            for (seat, hex, die, tech) in wrecks {
                if let Some(c) = s.colony_mut(*hex) {
                    if let Some(i) = c.deposits.iter().position(|m| *m == Marker::SpaceWreck) {
                        c.deposits.remove(i);
                    }
                }
                let e = &mut s.empires[seat.index()];
                let level = e.levels.get(*tech) + 1;
                e.levels.set(*tech, level);
                e.wrecks.push((*die, *tech));
                if s.options.instant_upgrade {
                    upgrade_all(s, *seat);
                }
            }
            s.rng = rng.clone();
            s.boundaries += 1;
        }
        Event::Sheet(e) => s.sheet.apply(e),
        Event::EconomyCarriedOut { ledgers, rng } => {
            for l in ledgers {
                carry_out_ledger(s, l);
            }
            s.sheet = OrderSheet::new([]);
            s.rng = rng.clone();
        }
        Event::ColoniesGrew => {
            for c in s.colonies.iter_mut() {
                c.worth = c.worth.grown();
                c.new_yards = 0;
            }
        }
        Event::BidsRevealed { bids, winner } => {
            for (seat, bid) in bids {
                s.empires[seat.index()].last_bid = Some(*bid);
            }
            s.phase = Phase::First { chooser: *winner };
            s.boundaries += 1;
        }
        Event::StandingSet { seat, standing } => s.empires[seat.index()].standing = *standing,
        Event::Resigned { seat } => resign(s, *seat),
        Event::GameEnded { outcome, .. } => {
            s.outcome = Some(outcome.clone());
            s.phase = Phase::Over;
            s.battle = None;
            for u in s.units.iter_mut() {
                u.face_up = true;
            }
            for p in s.spots.iter_mut() {
                p.face_up = true;
            }
            s.boundaries += 1;
        }
    }
}

/// Apply `e` to `s` and keep it in `out`.
pub fn push(s: &mut State, out: &mut Vec<Event>, e: Event) {
    apply(s, &e);
    out.push(e);
}

mod effects;
use effects::*;
