//! Views and narration. Starlanes hides only the order of the tech deck:
//! views carry its size, never its cards.

use super::basics::{Tech, SLOT_COST, UNIVERSAL_COST};
use super::events::Event;
use super::map::{Lane, Map};
use super::state::State;
use orrery_engine::{Outcome, Seat, Viewer};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanetView {
    pub name: String,
    pub q: i32,
    pub r: i32,
    pub production: u32,
    pub stars: u32,
    pub science: u32,
    pub home: Option<Seat>,
    pub holder: Option<Seat>,
    pub forces: u32,
    pub exhausted: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TechView {
    pub name: String,
    pub text: String,
    pub cost: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatView {
    pub seat: Seat,
    pub vp: u32,
    pub science: u32,
    pub stars: u32,
    pub techs: Vec<String>,
    pub exhausted_techs: Vec<String>,
    /// The player resigned: their forces stay in civil disorder. (Left out
    /// when false, so views recorded before resigning existed still match.)
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub resigned: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub viewer: Viewer,
    pub players: u8,
    pub radius: i32,
    pub planets: Vec<PlanetView>,
    pub lanes: Vec<Lane>,
    pub universal: Vec<TechView>,
    /// Slots costing 3, 2, 1 (null: empty).
    pub market: Vec<Option<TechView>>,
    pub deck_size: usize,
    pub discarded: usize,
    pub seats: Vec<SeatView>,
    pub active: Seat,
    pub round: u32,
    pub rounds: u32,
    pub token: Seat,
    pub action_taken: bool,
    pub may_buy: bool,
    pub outcome: Option<Outcome>,
}

fn tv(t: Tech, cost: u32) -> TechView {
    TechView {
        name: t.name().into(),
        text: t.text().into(),
        cost,
    }
}

pub fn view(st: &State, viewer: Viewer) -> View {
    let map: &Map = &st.map;
    let stars = if st.players > 0 { st.stars() } else { vec![] };
    View {
        viewer,
        players: st.players,
        radius: map.radius,
        planets: map
            .planets
            .iter()
            .enumerate()
            .map(|(i, p)| PlanetView {
                name: p.name.clone(),
                q: p.hex.q,
                r: p.hex.r,
                production: p.production,
                stars: p.stars,
                science: p.science,
                home: p.home,
                holder: st.holder(i),
                forces: st.forces[i].map(|(_, n)| n).unwrap_or(0),
                exhausted: st.exhausted[i],
            })
            .collect(),
        lanes: map.lanes.clone(),
        universal: st.universal.iter().map(|t| tv(*t, UNIVERSAL_COST)).collect(),
        market: st
            .market
            .iter()
            .enumerate()
            .map(|(i, t)| t.map(|t| tv(t, SLOT_COST[i])))
            .collect(),
        deck_size: st.deck.len(),
        discarded: st.discard.len(),
        seats: st
            .seats
            .iter()
            .enumerate()
            .map(|(i, p)| SeatView {
                seat: Seat(i as u8),
                vp: p.vp,
                science: p.science,
                stars: stars.get(i).copied().unwrap_or(0),
                techs: p.techs.iter().map(|t| t.name().to_string()).collect(),
                exhausted_techs: p.exhausted_techs.iter().map(|t| t.name().to_string()).collect(),
                resigned: p.resigned,
            })
            .collect(),
        active: st.active,
        round: st.round,
        rounds: st.options.rounds,
        token: st.token,
        action_taken: st.action_taken,
        may_buy: st.may_buy,
        outcome: st.outcome.clone(),
    }
}

fn who(names: &[String], s: Seat) -> String {
    names.get(s.index()).cloned().unwrap_or_else(|| s.to_string())
}

pub fn narrate(e: &Event, _viewer: Viewer, names: &[String]) -> Option<String> {
    let w = |s: &Seat| who(names, *s);
    Some(match e {
        Event::GameStarted {
            players,
            map,
            universal,
            market,
            ..
        } => format!(
            "Starlanes begins: {players} players, {} planets. Universal techs: {}. Market: {}.",
            map.planets.len(),
            universal.iter().map(|t| t.name()).collect::<Vec<_>>().join(", "),
            market_text(market)
        ),
        Event::ForcesSet { planet, seat, forces } => match seat {
            Some(s) => format!("{} starts with {forces} forces at {planet}.", w(s)),
            None => format!("{planet} is empty."),
        },
        Event::TurnBegan { seat, round } => format!("Round {round}: {}'s turn.", w(seat)),
        Event::Moved { seat, to, from, tech } => format!(
            "{} moved {} to {to}{}.",
            w(seat),
            from.iter()
                .map(|(p, n)| format!("{n} from {p}"))
                .collect::<Vec<_>>()
                .join(" and "),
            tech.map(|t| format!(" (with {})", t.name())).unwrap_or_default()
        ),
        Event::CombatResolved {
            planet,
            attacker,
            defender,
            attacker_forces,
            defender_forces,
            attacker_bonus,
            defender_bonus,
            attacker_left,
            defender_left,
        } => {
            let result = if *attacker_left > 0 {
                format!("{} holds it with {attacker_left}", w(attacker))
            } else if *defender_left > 0 {
                format!("{} holds it with {defender_left}", w(defender))
            } else {
                "both sides were wiped out".to_string()
            };
            format!(
                "Combat at {planet}: {} {attacker_forces} (+{attacker_bonus}) against {} {defender_forces} (+{defender_bonus}); {result}.",
                w(attacker),
                w(defender)
            )
        }
        Event::Produced {
            seat,
            planet,
            forces,
            science,
        } => {
            let sci = if *science > 0 {
                format!(" and {science} science")
            } else {
                String::new()
            };
            format!("{} produced {forces} forces{sci} at {planet}.", w(seat))
        }
        Event::PlanetExhausted { planet } => format!("{planet} is exhausted."),
        Event::PlanetReadied { planet } => format!("{planet} is ready again."),
        Event::Refreshed { seat } => format!("{} refreshed their planets and techs.", w(seat)),
        Event::TechUsed { seat, tech } => format!("{} used {}.", w(seat), tech.name()),
        Event::ForcesAdded { seat, planet, forces } => format!("{} added {forces} forces at {planet}.", w(seat)),
        Event::ScienceGained { seat, science } => format!("{} gained {science} science.", w(seat)),
        Event::TechBought { seat, tech, cost, .. } => {
            format!("{} bought {} for {cost} science: {}", w(seat), tech.name(), tech.text())
        }
        Event::MarketCycled { market, discarded, .. } => format!(
            "The market cycled{}: {}.",
            discarded
                .map(|d| format!(" ({} discarded)", d.name()))
                .unwrap_or_default(),
            market_text(market)
        ),
        Event::TurnEnded { seat } => format!("{} ended their turn.", w(seat)),
        Event::Scored { seat, stars } => match seat {
            Some(s) => format!(
                "Scoring: {} has the most stars ({}) and scores 1 VP.",
                w(s),
                stars[s.index()]
            ),
            None => "Scoring: nobody has strictly the most stars; no VP.".to_string(),
        },
        Event::TokenPassed { to } => format!("The scoring token passes to {}.", w(to)),
        Event::GameOver { outcome } => match outcome {
            Outcome::Winner { seat, reason } => format!("{} wins: {reason}.", w(seat)),
            Outcome::Shared { seats, reason } => format!(
                "{} share the victory: {reason}.",
                seats.iter().map(w).collect::<Vec<_>>().join(" and ")
            ),
            Outcome::AllLose { reason } => format!("Everyone loses: {reason}."),
        },
        Event::Resigned { seat, planets, forces } => {
            let pieces = if *planets == 0 {
                "they held no planet".to_string()
            } else {
                format!(
                    "their {} on {} stay in civil disorder: they hold and defend, but never move, produce or score",
                    crate::shared::menu::counted(*forces, "force", "forces"),
                    crate::shared::menu::counted(*planets, "planet", "planets")
                )
            };
            format!("🏳️ {} resigned: {pieces}.", w(seat))
        }
        Event::TechGranted { .. }
        | Event::ScienceSet { .. }
        | Event::VpSet { .. }
        | Event::MarketSet { .. }
        | Event::TokenSet { .. } => return None,
    })
}

fn market_text(m: &[Option<Tech>; 3]) -> String {
    m.iter()
        .enumerate()
        .map(|(i, t)| format!("{}: {}", SLOT_COST[i], t.map(|t| t.name()).unwrap_or("empty")))
        .collect::<Vec<_>>()
        .join(", ")
}
