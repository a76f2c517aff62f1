//! Orders, legality, pending decisions and the automatic flow.

use super::map::Map;
use super::state::{Event, Options, State, SLOT_COST, START_FORCES, UNIVERSAL_COST, WIN_VP};
use super::techs::{self, Kind, Situation, Tech};
use orrery_engine::{
    options_of, CommandLine, GameConfig, GameRng, OptionValues, Outcome, ParseError, Pending, Rejection, Seat, SetupError,
    SetupOption,
};
use serde::{Deserialize, Serialize};

/// Sources of a move: planet and how many forces (None: all of them).
pub type Sources = Vec<(String, Option<u32>)>;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Action {
    Move {
        to: String,
        from: Sources,
    },
    Produce {
        at: String,
    },
    Refresh,
    Use {
        tech: Tech,
        at: Option<String>,
        also: Option<String>,
        to: Option<String>,
        from: Sources,
    },
    Buy {
        tech: Tech,
    },
    End,
}

/// The options of `/game new`.
pub const OPTIONS: [SetupOption; 2] = [
    SetupOption {
        key: "rounds",
        description: "Round limit: the game ends after this many rounds if nobody has 6 VP",
        values: OptionValues::Whole {
            min: 1,
            max: 500,
            default: 40,
        },
    },
    SetupOption {
        key: "map",
        description: "The fixed map of the rules, or a random one",
        values: OptionValues::Words {
            words: &["fixed", "random"],
            default: "fixed",
        },
    },
];

pub fn setup(config: &GameConfig) -> Result<Vec<Event>, SetupError> {
    let read = options_of::<super::Starlanes>(config)?;
    let options = Options {
        map: read.word("map").to_string(),
        rounds: read.whole("rounds"),
    };
    let mut rng = GameRng::seeded(config.seed);
    let map = if options.map == "random" {
        Map::random(config.players, &mut rng)
    } else {
        Map::fixed(config.players)
    };
    let mut deck = Tech::ALL.to_vec();
    rng.shuffle(&mut deck);
    let universal: Vec<Tech> = deck.drain(..3).collect();
    let market = [Some(deck.remove(0)), Some(deck.remove(0)), None];
    let homes: Vec<String> = Seat::all(config.players as usize)
        .map(|s| map.planets[map.home_of(s)].name.clone())
        .collect();
    let mut events = vec![Event::GameStarted {
        players: config.players,
        options,
        map: Box::new(map),
        universal,
        market,
        deck,
        rng: Box::new(rng),
    }];
    for (i, home) in homes.into_iter().enumerate() {
        events.push(Event::ForcesSet {
            planet: home,
            seat: Some(Seat(i as u8)),
            forces: START_FORCES,
        });
    }
    events.push(Event::TurnBegan {
        seat: Seat(0),
        round: 1,
    });
    Ok(events)
}

pub fn pending(st: &State) -> Vec<Pending> {
    if st.outcome.is_some() || st.players == 0 {
        return vec![];
    }
    let prompt = if st.action_taken {
        "Take Free Actions, buy a tech if you produced science, or `end` your turn".to_string()
    } else {
        "Take one Action (move, produce, refresh or a tech Action) and any Free Actions, then `end`".to_string()
    };
    vec![Pending {
        seat: st.active,
        kind: "turn".into(),
        prompt,
        secret: false,
        submitted: false,
        sheet: false,
    }]
}

pub fn default_action(st: &State, seat: Seat) -> Option<Action> {
    (st.outcome.is_none() && st.active == seat && st.players > 0).then_some(Action::End)
}

// ---- text ----------------------------------------------------------------

const MOVE_USAGE: &str = "move to:PLANET from:PLANET[=N][,PLANET[=N]...]";
const USE_USAGE: &str = "use tech:NAME [at:PLANET] [also:PLANET] [to:PLANET] [from:PLANET[=N],...]";

fn parse_sources(raw: &str, usage: &str) -> Result<Sources, ParseError> {
    let mut out = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match part.split_once('=') {
            Some((name, n)) => {
                let n = n.trim().parse::<u32>().map_err(|_| ParseError {
                    message: format!("`{part}`: the number after `=` is not a whole number"),
                    usage: usage.into(),
                })?;
                out.push((name.trim().to_string(), Some(n)));
            }
            None => out.push((part.to_string(), None)),
        }
    }
    if out.is_empty() {
        return Err(ParseError {
            message: "`from` names no planet".into(),
            usage: usage.into(),
        });
    }
    Ok(out)
}

fn sources_text(from: &Sources) -> String {
    from.iter()
        .map(|(p, n)| match n {
            Some(n) => format!("{p}={n}"),
            None => p.clone(),
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn tech_arg(line: &CommandLine, usage: &str) -> Result<Tech, ParseError> {
    let raw = line.required("tech", usage)?;
    Tech::from_name(raw).ok_or_else(|| ParseError {
        message: format!(
            "unknown tech `{raw}` (techs: {})",
            Tech::ALL.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
        ),
        usage: usage.into(),
    })
}

pub fn parse(line: &CommandLine) -> Result<Action, ParseError> {
    match line.name.as_str() {
        "move" => {
            line.only(&["to", "from"], MOVE_USAGE)?;
            Ok(Action::Move {
                to: line.required("to", MOVE_USAGE)?.to_string(),
                from: parse_sources(line.required("from", MOVE_USAGE)?, MOVE_USAGE)?,
            })
        }
        "produce" => {
            line.only(&["at"], "produce at:PLANET")?;
            Ok(Action::Produce {
                at: line.required("at", "produce at:PLANET")?.to_string(),
            })
        }
        "refresh" => {
            line.only(&[], "refresh")?;
            Ok(Action::Refresh)
        }
        "use" => {
            line.only(&["tech", "at", "also", "to", "from"], USE_USAGE)?;
            Ok(Action::Use {
                tech: tech_arg(line, USE_USAGE)?,
                at: line.get("at").map(str::to_string),
                also: line.get("also").map(str::to_string),
                to: line.get("to").map(str::to_string),
                from: match line.get("from") {
                    Some(raw) => parse_sources(raw, USE_USAGE)?,
                    None => vec![],
                },
            })
        }
        "buy" => {
            line.only(&["tech"], "buy tech:NAME")?;
            Ok(Action::Buy {
                tech: tech_arg(line, "buy tech:NAME")?,
            })
        }
        "end" => {
            line.only(&[], "end")?;
            Ok(Action::End)
        }
        other => Err(ParseError {
            message: format!("unknown order `{other}`"),
            usage: "move, produce, refresh, use, buy or end".into(),
        }),
    }
}

pub fn unparse(a: &Action) -> CommandLine {
    match a {
        Action::Move { to, from } => CommandLine::new("move").arg("to", to).arg("from", sources_text(from)),
        Action::Produce { at } => CommandLine::new("produce").arg("at", at),
        Action::Refresh => CommandLine::new("refresh"),
        Action::Use {
            tech,
            at,
            also,
            to,
            from,
        } => {
            let mut c = CommandLine::new("use").arg("tech", tech.name());
            if let Some(x) = at {
                c = c.arg("at", x);
            }
            if let Some(x) = also {
                c = c.arg("also", x);
            }
            if let Some(x) = to {
                c = c.arg("to", x);
            }
            if !from.is_empty() {
                c = c.arg("from", sources_text(from));
            }
            c
        }
        Action::Buy { tech } => CommandLine::new("buy").arg("tech", tech.name()),
        Action::End => CommandLine::new("end"),
    }
}

// ---- legality ------------------------------------------------------------

fn held(st: &State, seat: Seat) -> Vec<usize> {
    (0..st.forces.len()).filter(|&p| st.holder(p) == Some(seat)).collect()
}

fn name(st: &State, p: usize) -> String {
    st.map.planets[p].name.clone()
}

/// Single-source moves to `to` from each of `sources`, every count.
fn moves_from(st: &State, seat: Seat, sources: &[usize]) -> Vec<Sources> {
    let mut out = Vec::new();
    for &s in sources {
        let n = st.forces_of(s, seat);
        for k in 1..=n {
            out.push(vec![(name(st, s), Some(k))]);
        }
    }
    if sources.len() >= 2 {
        out.push(sources.iter().map(|&s| (name(st, s), None)).collect());
    }
    out
}

fn adjacent_sources(st: &State, seat: Seat, to: usize) -> Vec<usize> {
    st.map
        .neighbors(to)
        .into_iter()
        .filter(|&p| st.forces_of(p, seat) > 0)
        .collect()
}

fn jump_sources(st: &State, seat: Seat, to: usize) -> Vec<usize> {
    let d = st.map.distances(to);
    (0..st.forces.len())
        .filter(|&p| p != to && d[p].is_some_and(|d| d <= 2) && st.forces_of(p, seat) > 0)
        .collect()
}

pub fn buy_options(st: &State, seat: Seat) -> Vec<(Tech, u32, Option<usize>)> {
    let ps = &st.seats[seat.index()];
    let mut out = Vec::new();
    for &t in &st.universal {
        if !ps.techs.contains(&t) && ps.science >= UNIVERSAL_COST {
            out.push((t, UNIVERSAL_COST, None));
        }
    }
    for (i, slot) in st.market.iter().enumerate() {
        if let Some(t) = slot {
            if !ps.techs.contains(t) && ps.science >= SLOT_COST[i] {
                out.push((*t, SLOT_COST[i], Some(i)));
            }
        }
    }
    out
}

pub fn legal_actions(st: &State, seat: Seat) -> Vec<Action> {
    if st.outcome.is_some() || st.players == 0 || st.active != seat {
        return vec![];
    }
    let mut out = Vec::new();
    let mine = held(st, seat);
    let use_ = |tech, at: Option<usize>, also: Option<usize>, to: Option<usize>, from: Sources| Action::Use {
        tech,
        at: at.map(|p| name(st, p)),
        also: also.map(|p| name(st, p)),
        to: to.map(|p| name(st, p)),
        from,
    };
    if !st.action_taken {
        for to in 0..st.forces.len() {
            for from in moves_from(st, seat, &adjacent_sources(st, seat, to)) {
                out.push(Action::Move { to: name(st, to), from });
            }
        }
        for &p in &mine {
            if !st.exhausted[p] {
                out.push(Action::Produce { at: name(st, p) });
            }
        }
        out.push(Action::Refresh);
        let ready = |t| st.tech_ready(seat, t);
        if ready(Tech::Foundries) {
            for &a in &mine {
                for &b in &mine {
                    if a < b && !st.exhausted[a] && !st.exhausted[b] {
                        out.push(use_(Tech::Foundries, Some(a), Some(b), None, vec![]));
                    }
                }
            }
        }
        if ready(Tech::Jumpgates) {
            for to in 0..st.forces.len() {
                for s in jump_sources(st, seat, to) {
                    for from in moves_from(st, seat, &[s]) {
                        out.push(use_(Tech::Jumpgates, None, None, Some(to), from));
                    }
                }
            }
        }
        if ready(Tech::Overclock) {
            for &p in &mine {
                out.push(use_(Tech::Overclock, Some(p), None, None, vec![]));
            }
        }
        if ready(Tech::Levy) && !mine.is_empty() {
            out.push(use_(Tech::Levy, None, None, None, vec![]));
        }
        if ready(Tech::Grants) {
            out.push(use_(Tech::Grants, None, None, None, vec![]));
        }
    }
    if st.tech_ready(seat, Tech::Logistics) {
        for &to in &mine {
            let srcs: Vec<usize> = adjacent_sources(st, seat, to);
            for s in srcs {
                for from in moves_from(st, seat, &[s]) {
                    out.push(use_(Tech::Logistics, None, None, Some(to), from));
                }
            }
        }
    }
    if st.tech_ready(seat, Tech::Labs) {
        out.push(use_(Tech::Labs, None, None, None, vec![]));
    }
    if st.tech_ready(seat, Tech::Refit) {
        for &p in &mine {
            if st.exhausted[p] {
                out.push(use_(Tech::Refit, Some(p), None, None, vec![]));
            }
        }
    }
    if st.tech_ready(seat, Tech::Conscripts) {
        for &p in &mine {
            out.push(use_(Tech::Conscripts, Some(p), None, None, vec![]));
        }
    }
    if st.may_buy {
        for (t, _, _) in buy_options(st, seat) {
            out.push(Action::Buy { tech: t });
        }
    }
    out.push(Action::End);
    out
}

/// Autocomplete for a move from several planets with counts of one's own
/// choosing (`from:Vega=2,Mira=1`), which the legal list leaves out (it has
/// each planet alone with every count, and all the forces of every
/// adjacent planet): once `to` is given and the sources typed so far end in
/// a comma, offer each further adjacent source, with all its forces or with
/// each count, keeping only orders `decide` accepts.
pub fn complete_sources(
    st: &State,
    seat: Seat,
    command: &str,
    option: &str,
    filled: &[(String, String)],
    partial: &str,
) -> Vec<String> {
    if command != "move" || option != "from" || st.active != seat || st.action_taken {
        return vec![];
    }
    let Some(to) = filled
        .iter()
        .find(|(k, _)| k == "to")
        .and_then(|(_, v)| st.map.index(v))
    else {
        return vec![];
    };
    let Some((head, tail)) = partial.rsplit_once(',') else {
        return vec![];
    };
    let Ok(listed) = parse_sources(head, MOVE_USAGE) else {
        return vec![];
    };
    let tail = tail.trim().to_lowercase();
    let mut out = Vec::new();
    for s in adjacent_sources(st, seat, to) {
        if listed.iter().any(|(p, _)| st.map.index(p) == Some(s)) {
            continue;
        }
        let nm = name(st, s);
        let counts = (1..=st.forces_of(s, seat)).map(|k| format!("{nm}={k}"));
        for seg in std::iter::once(nm.clone()).chain(counts) {
            if !seg.to_lowercase().starts_with(&tail) {
                continue;
            }
            let text = format!("{},{seg}", head.trim());
            let Ok(from) = parse_sources(&text, MOVE_USAGE) else {
                continue;
            };
            let action = Action::Move { to: name(st, to), from };
            if decide(st, seat, &action).is_ok() {
                out.push(text);
            }
        }
    }
    out
}

fn legal_text(st: &State, seat: Seat, pred: impl Fn(&Action) -> bool) -> Vec<String> {
    legal_actions(st, seat)
        .iter()
        .filter(|a| pred(a))
        .map(|a| unparse(a).to_string())
        .collect()
}

fn illegal(st: &State, seat: Seat, reason: impl Into<String>, pred: impl Fn(&Action) -> bool) -> Rejection {
    Rejection::illegal(reason, legal_text(st, seat, pred))
}

fn find_planet(st: &State, _seat: Seat, raw: &str) -> Result<usize, Rejection> {
    st.map.index(raw).ok_or_else(|| {
        Rejection::illegal(
            format!("there is no planet `{raw}`"),
            st.map.planets.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        )
    })
}

fn need(st: &State, seat: Seat, raw: &Option<String>, what: &str, tech: Tech) -> Result<usize, Rejection> {
    match raw {
        Some(r) => find_planet(st, seat, r),
        None => Err(illegal(
            st,
            seat,
            format!("{} needs `{what}:PLANET`", tech.name()),
            |a| matches!(a, Action::Use { tech: t, .. } if *t == tech),
        )),
    }
}

/// Resolve and check sources: each held by `seat`, reachable by `ok`.
fn check_sources(
    st: &State,
    seat: Seat,
    to: usize,
    from: &Sources,
    ok: impl Fn(usize) -> bool,
    pred: impl Fn(&Action) -> bool + Copy,
) -> Result<Vec<(String, u32)>, Rejection> {
    let mut out: Vec<(String, u32)> = Vec::new();
    for (raw, n) in from {
        let p = find_planet(st, seat, raw)?;
        let nm = name(st, p);
        if p == to || out.iter().any(|(x, _)| *x == nm) {
            return Err(illegal(
                st,
                seat,
                format!("{nm} is listed twice or is the destination"),
                pred,
            ));
        }
        if !ok(p) {
            return Err(illegal(
                st,
                seat,
                format!("{nm} is not in reach of {}", name(st, to)),
                pred,
            ));
        }
        let have = st.forces_of(p, seat);
        let k = n.unwrap_or(have);
        if have == 0 || k == 0 || k > have {
            return Err(illegal(
                st,
                seat,
                format!("you have {have} forces at {nm}, cannot move {k}"),
                pred,
            ));
        }
        out.push((nm, k));
    }
    Ok(out)
}

/// The move event and, if the destination is enemy-held, the combat.
fn move_events(st: &State, seat: Seat, to: usize, from: Vec<(String, u32)>, tech: Option<Tech>) -> Vec<Event> {
    let total: u32 = from.iter().map(|(_, n)| n).sum();
    let sources = from.len();
    let mut ev = vec![Event::Moved {
        seat,
        to: name(st, to),
        from,
        tech,
    }];
    if let Some((def, dn)) = st.forces[to] {
        if def != seat {
            let p = &st.map.planets[to];
            let sit = |attacking: bool, own: u32, enemy: u32, home: bool| Situation {
                attacking,
                own_forces: own,
                enemy_forces: enemy,
                sources,
                stars: p.stars,
                science: p.science,
                production: p.production,
                own_home: home,
                exhausted: st.exhausted[to],
            };
            let bonus = |s: Seat, situation: &Situation| -> u32 {
                st.seats[s.index()].techs.iter().map(|t| t.bonus(situation)).sum()
            };
            let ab = bonus(seat, &sit(true, total, dn, false));
            let db = bonus(def, &sit(false, dn, total, p.home == Some(def)));
            let (al, dl) = techs::resolve(total, dn, ab, db);
            ev.push(Event::CombatResolved {
                planet: name(st, to),
                attacker: seat,
                defender: def,
                attacker_forces: total,
                defender_forces: dn,
                attacker_bonus: ab,
                defender_bonus: db,
                attacker_left: al,
                defender_left: dl,
            });
        }
    }
    ev
}

fn produce_events(st: &State, seat: Seat, p: usize) -> Vec<Event> {
    let pl = &st.map.planets[p];
    vec![
        Event::Produced {
            seat,
            planet: pl.name.clone(),
            forces: pl.production,
            science: pl.science,
        },
        Event::PlanetExhausted {
            planet: pl.name.clone(),
        },
    ]
}

pub fn decide(st: &State, seat: Seat, action: &Action) -> Result<Vec<Event>, Rejection> {
    if st.active != seat {
        return Err(Rejection::NotYourDecision {
            seat,
            waiting: crate::waiting_seats(&pending(st)),
        });
    }
    let action_used = |what: &str| {
        illegal(
            st,
            seat,
            format!("you have already taken your Action this turn, so you cannot {what}"),
            |_| true,
        )
    };
    match action {
        Action::Move { to, from } => {
            if st.action_taken {
                return Err(action_used("move"));
            }
            let t = find_planet(st, seat, to)?;
            let pred = |a: &Action| matches!(a, Action::Move { .. });
            let from = check_sources(st, seat, t, from, |p| st.map.adjacent(p, t), pred)?;
            Ok(move_events(st, seat, t, from, None))
        }
        Action::Produce { at } => {
            if st.action_taken {
                return Err(action_used("produce"));
            }
            let p = find_planet(st, seat, at)?;
            let pred = |a: &Action| matches!(a, Action::Produce { .. });
            if st.holder(p) != Some(seat) {
                return Err(illegal(
                    st,
                    seat,
                    format!("you have no forces at {}", name(st, p)),
                    pred,
                ));
            }
            if st.exhausted[p] {
                return Err(illegal(st, seat, format!("{} is exhausted", name(st, p)), pred));
            }
            Ok(produce_events(st, seat, p))
        }
        Action::Refresh => {
            if st.action_taken {
                return Err(action_used("refresh"));
            }
            Ok(vec![Event::Refreshed { seat }])
        }
        Action::Use {
            tech,
            at,
            also,
            to,
            from,
        } => {
            let tech = *tech;
            let pred = move |a: &Action| matches!(a, Action::Use { tech: t, .. } if *t == tech);
            if !st.has(seat, tech) {
                return Err(illegal(st, seat, format!("you do not own {}", tech.name()), |a| {
                    matches!(a, Action::Use { .. })
                }));
            }
            if tech.kind() == Kind::Combat {
                return Err(illegal(
                    st,
                    seat,
                    format!("{} is a combat bonus; it works by itself", tech.name()),
                    |a| matches!(a, Action::Use { .. }),
                ));
            }
            if !st.tech_ready(seat, tech) {
                return Err(illegal(
                    st,
                    seat,
                    format!("{} is exhausted (refresh it)", tech.name()),
                    |a| matches!(a, Action::Use { .. }),
                ));
            }
            if tech.kind() == Kind::Action && st.action_taken {
                return Err(action_used(&format!("use {}", tech.name())));
            }
            let used = Event::TechUsed { seat, tech };
            let mine = |p: usize| st.holder(p) == Some(seat);
            let mut ev = vec![used];
            match tech {
                Tech::Foundries => {
                    let a = need(st, seat, at, "at", tech)?;
                    let b = need(st, seat, also, "also", tech)?;
                    if a == b || !mine(a) || !mine(b) || st.exhausted[a] || st.exhausted[b] {
                        return Err(illegal(
                            st,
                            seat,
                            "Foundries needs two different non-exhausted planets you hold",
                            pred,
                        ));
                    }
                    ev.extend(produce_events(st, seat, a));
                    ev.extend(produce_events(st, seat, b));
                }
                Tech::Overclock => {
                    let a = need(st, seat, at, "at", tech)?;
                    if !mine(a) {
                        return Err(illegal(st, seat, "Overclock needs a planet you hold", pred));
                    }
                    ev.extend(produce_events(st, seat, a));
                }
                Tech::Jumpgates | Tech::Logistics => {
                    let t = need(st, seat, to, "to", tech)?;
                    if from.len() != 1 {
                        return Err(illegal(
                            st,
                            seat,
                            format!("{} moves from exactly one planet", tech.name()),
                            pred,
                        ));
                    }
                    if tech == Tech::Logistics && !mine(t) {
                        return Err(illegal(st, seat, "Logistics moves only to a planet you hold", pred));
                    }
                    let d = st.map.distances(t);
                    let reach = |p: usize| {
                        if tech == Tech::Jumpgates {
                            d[p].is_some_and(|d| d <= 2)
                        } else {
                            st.map.adjacent(p, t)
                        }
                    };
                    let from = check_sources(st, seat, t, from, reach, pred)?;
                    ev.extend(move_events(st, seat, t, from, Some(tech)));
                }
                Tech::Levy => {
                    for p in held(st, seat) {
                        ev.push(Event::ForcesAdded {
                            seat,
                            planet: name(st, p),
                            forces: 1,
                        });
                    }
                }
                Tech::Grants => ev.push(Event::ScienceGained { seat, science: 2 }),
                Tech::Labs => ev.push(Event::ScienceGained { seat, science: 1 }),
                Tech::Refit => {
                    let a = need(st, seat, at, "at", tech)?;
                    if !mine(a) || !st.exhausted[a] {
                        return Err(illegal(st, seat, "Refit needs an exhausted planet you hold", pred));
                    }
                    ev.push(Event::PlanetReadied { planet: name(st, a) });
                }
                Tech::Conscripts => {
                    let a = need(st, seat, at, "at", tech)?;
                    if !mine(a) {
                        return Err(illegal(st, seat, "Conscripts needs a planet you hold", pred));
                    }
                    ev.push(Event::ForcesAdded {
                        seat,
                        planet: name(st, a),
                        forces: 1,
                    });
                }
                _ => unreachable!("combat techs handled above"),
            }
            Ok(ev)
        }
        Action::Buy { tech } => {
            let pred = |a: &Action| matches!(a, Action::Buy { .. });
            if !st.may_buy {
                return Err(illegal(
                    st,
                    seat,
                    "you may buy a tech only right after producing science (once per production)",
                    |a| matches!(a, Action::Produce { .. }),
                ));
            }
            if st.has(seat, *tech) {
                return Err(illegal(st, seat, format!("you already own {}", tech.name()), pred));
            }
            let offered = st.universal.contains(tech) || st.market.contains(&Some(*tech));
            if !offered {
                return Err(illegal(st, seat, format!("{} is not for sale", tech.name()), pred));
            }
            let Some((_, cost, slot)) = buy_options(st, seat).into_iter().find(|(t, _, _)| t == tech) else {
                return Err(illegal(
                    st,
                    seat,
                    format!(
                        "you have {} science, not enough for {}",
                        st.seats[seat.index()].science,
                        tech.name()
                    ),
                    pred,
                ));
            };
            let mut market = st.market;
            if let Some(i) = slot {
                market[i] = None;
            }
            let drawn = st.deck.first().copied();
            let cycled = [drawn, market[0], market[1]];
            Ok(vec![
                Event::TechBought {
                    seat,
                    tech: *tech,
                    cost,
                    slot,
                },
                Event::MarketCycled {
                    market: cycled,
                    discarded: market[2],
                    drawn,
                },
            ])
        }
        Action::End => Ok(end_turn(st, seat)),
    }
}

fn end_turn(st: &State, seat: Seat) -> Vec<Event> {
    let n = st.players;
    let mut ev = vec![Event::TurnEnded { seat }];
    let mut vp: Vec<u32> = st.seats.iter().map(|p| p.vp).collect();
    if st.token == seat {
        let stars = st.stars();
        let best = stars.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..stars.len()).filter(|&i| stars[i] == best).collect();
        let scorer = (best > 0 && leaders.len() == 1).then(|| Seat(leaders[0] as u8));
        ev.push(Event::Scored { seat: scorer, stars });
        if let Some(s) = scorer {
            vp[s.index()] += 1;
            if vp[s.index()] >= WIN_VP {
                ev.push(Event::GameOver {
                    outcome: Outcome::Winner {
                        seat: s,
                        reason: format!("reached {WIN_VP} victory points"),
                    },
                });
                return ev;
            }
        }
        ev.push(Event::TokenPassed {
            to: Seat((seat.0 + n - 1) % n),
        });
    }
    let last = seat.0 + 1 == n;
    if last && st.round >= st.options.rounds {
        ev.push(Event::GameOver {
            outcome: round_limit_outcome(st, &vp),
        });
        return ev;
    }
    ev.push(Event::TurnBegan {
        seat: Seat((seat.0 + 1) % n),
        round: if last { st.round + 1 } else { st.round },
    });
    ev
}

/// Round limit: most VP, then most stars; a remaining tie is shared.
fn round_limit_outcome(st: &State, vp: &[u32]) -> Outcome {
    let stars = st.stars();
    let key = |i: usize| (vp[i], stars[i]);
    let best = (0..vp.len()).map(key).max().unwrap_or((0, 0));
    let seats: Vec<Seat> = (0..vp.len())
        .filter(|&i| key(i) == best)
        .map(|i| Seat(i as u8))
        .collect();
    let reason = format!(
        "round limit ({} rounds): most victory points, then most stars",
        st.options.rounds
    );
    if seats.len() == 1 {
        Outcome::Winner { seat: seats[0], reason }
    } else {
        Outcome::Shared { seats, reason }
    }
}
