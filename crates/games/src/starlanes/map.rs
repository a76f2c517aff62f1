//! The map: planets on hexes, hyperlanes, adjacency, and the set-ups.
//!
//! Every map (fixed or random) is built from one *template* (the planets
//! around player 1's home) copied by a symmetry of the hex grid, one copy
//! per player: 180° for 2 players, 120° turns for 3, the two mirror lines
//! for 4. Distances are preserved by these maps, so every start is exactly
//! as far from stars and science as every other (a test checks it).

use orrery_engine::{GameRng, Hex, Seat};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// One planet.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Planet {
    pub name: String,
    pub hex: Hex,
    pub production: u32,
    pub stars: u32,
    pub science: u32,
    /// The seat that starts here, if a home planet.
    pub home: Option<Seat>,
}

/// A hyperlane hex joining the two hexes on opposite sides of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lane {
    pub hex: Hex,
    pub ends: (Hex, Hex),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Map {
    pub radius: i32,
    pub planets: Vec<Planet>,
    pub lanes: Vec<Lane>,
}

const NAMES: [&str; 48] = [
    "Nexus",
    "Altair",
    "Vega",
    "Rigel",
    "Deneb",
    "Mira",
    "Sirius",
    "Castor",
    "Pollux",
    "Spica",
    "Antares",
    "Bellatrix",
    "Capella",
    "Elnath",
    "Fomalhaut",
    "Hadar",
    "Izar",
    "Kochab",
    "Lyra",
    "Mimosa",
    "Naos",
    "Phact",
    "Regulus",
    "Sabik",
    "Tarazed",
    "Wezen",
    "Zosma",
    "Alcor",
    "Hamal",
    "Markab",
    "Nunki",
    "Pherkad",
    "Rana",
    "Schedar",
    "Thuban",
    "Unuk",
    "Alphard",
    "Dubhe",
    "Enif",
    "Gienah",
    "Menkar",
    "Nashira",
    "Okul",
    "Sadr",
    "Talitha",
    "Vindemiatrix",
    "Yildun",
    "Zaurak",
];

/// Symmetry number `k` for `players` (k = the seat it carries seat 1 to).
fn sym(players: u8, k: usize, h: Hex) -> Hex {
    let (q, r, s) = (h.q, h.r, h.s());
    match (players, k) {
        (_, 0) => h,
        (2, 1) => Hex::new(-q, -r),
        // 120° and 240°: (q,r,s) -> (s,q,r) -> (r,s,q)
        (3, 1) => Hex::new(s, q),
        (3, 2) => Hex::new(r, s),
        // The Klein group of two perpendicular mirrors and their product.
        (4, 1) => Hex::new(-q, -s),
        (4, 2) => Hex::new(-q, -r),
        (4, 3) => Hex::new(q, s),
        _ => unreachable!("no symmetry {k} for {players} players"),
    }
}

/// The template of one player's region: (hex, production, stars, science).
/// The first entry is the home; an entry may be fixed by some symmetries
/// (then it is shared).
struct Template {
    radius: i32,
    planets: Vec<(Hex, u32, u32, u32)>,
    lanes: Vec<(Hex, usize)>,
}

fn fixed_template(players: u8) -> Template {
    let h = Hex::new;
    match players {
        2 => Template {
            radius: 3,
            planets: vec![
                (h(0, 2), 2, 0, 0),
                (h(0, 0), 1, 2, 0),
                (h(1, 1), 1, 0, 1),
                (h(-1, 2), 1, 1, 0),
                (h(0, 1), 2, 0, 0),
                (h(3, -1), 2, 1, 1),
                (h(-1, 1), 1, 0, 1),
            ],
            // Hyperlane at (2,0) joins (3,-1) and (1,1) (direction 1 / 4).
            lanes: vec![(h(2, 0), 1)],
        },
        3 => Template {
            radius: 3,
            planets: vec![
                (h(0, 3), 2, 0, 0),
                (h(0, 0), 1, 2, 0),
                (h(1, 2), 1, 0, 1),
                (h(-1, 3), 1, 1, 0),
                (h(0, 2), 1, 0, 0),
                (h(0, 1), 2, 0, 0),
                (h(2, 1), 2, 1, 1),
                (h(2, 0), 1, 0, 1),
            ],
            // Hyperlane at (1,1) joins (2,0) and (0,2).
            lanes: vec![(h(1, 1), 1)],
        },
        _ => Template {
            radius: 4,
            planets: vec![
                (h(-2, 4), 2, 0, 0),
                (h(0, 0), 1, 2, 0),
                (h(-1, 3), 1, 0, 1),
                (h(-3, 4), 1, 1, 0),
                (h(-2, 3), 1, 0, 0),
                (h(-1, 2), 2, 0, 0),
                (h(0, 1), 2, 1, 0),
                (h(-2, 1), 1, 0, 2),
            ],
            // Hyperlane at (-2,2) joins (-2,3) and (-2,1).
            lanes: vec![(h(-2, 2), 2)],
        },
    }
}

fn build(players: u8, t: &Template) -> Map {
    let n = players as usize;
    let mut planets: Vec<Planet> = Vec::new();
    for (i, &(hex, production, stars, science)) in t.planets.iter().enumerate() {
        for k in 0..n {
            let at = sym(players, k, hex);
            if planets.iter().any(|p| p.hex == at) {
                continue;
            }
            planets.push(Planet {
                name: String::new(),
                hex: at,
                production,
                stars,
                science,
                home: (i == 0).then_some(Seat(k as u8)),
            });
        }
    }
    // Neutral centre first, then homes, then the rest: stable names.
    planets.sort_by_key(|p| (p.hex != Hex::new(0, 0), p.home.is_none(), p.hex.length(), p.hex));
    for (i, p) in planets.iter_mut().enumerate() {
        p.name = NAMES[i % NAMES.len()].to_string();
    }
    let mut lanes: Vec<Lane> = Vec::new();
    for &(hex, dir) in &t.lanes {
        for k in 0..n {
            let at = sym(players, k, hex);
            if lanes.iter().any(|l| l.hex == at) {
                continue;
            }
            let a = sym(players, k, hex.neighbor(dir));
            let b = sym(players, k, hex.neighbor(dir + 3));
            lanes.push(Lane { hex: at, ends: (a, b) });
        }
    }
    Map {
        radius: t.radius,
        planets,
        lanes,
    }
}

impl Map {
    /// The designed map for this many players.
    pub fn fixed(players: u8) -> Map {
        build(players, &fixed_template(players))
    }

    /// A random fair map: a random template copied by the symmetry.
    pub fn random(players: u8, rng: &mut GameRng) -> Map {
        loop {
            let t = random_template(players, rng);
            let map = build(players, &t);
            if map.is_sound(players) {
                return map;
            }
        }
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.planets
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name.trim()))
    }

    pub fn at(&self, hex: Hex) -> Option<usize> {
        self.planets.iter().position(|p| p.hex == hex)
    }

    pub fn home_of(&self, seat: Seat) -> usize {
        self.planets
            .iter()
            .position(|p| p.home == Some(seat))
            .expect("every seat has a home")
    }

    /// Are two planets adjacent (neighbouring hexes, or joined by a lane)?
    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        if a == b {
            return false;
        }
        let (ha, hb) = (self.planets[a].hex, self.planets[b].hex);
        ha.distance(hb) == 1 || self.lanes.iter().any(|l| l.ends == (ha, hb) || l.ends == (hb, ha))
    }

    pub fn neighbors(&self, a: usize) -> Vec<usize> {
        (0..self.planets.len()).filter(|&b| self.adjacent(a, b)).collect()
    }

    /// Steps from `from` to every planet (None: unreachable).
    pub fn distances(&self, from: usize) -> Vec<Option<u32>> {
        let mut d = vec![None; self.planets.len()];
        d[from] = Some(0);
        let mut queue = VecDeque::from([from]);
        while let Some(a) = queue.pop_front() {
            for b in self.neighbors(a) {
                if d[b].is_none() {
                    d[b] = Some(d[a].unwrap_or(0) + 1);
                    queue.push_back(b);
                }
            }
        }
        d
    }

    /// Steps from `from` to the nearest planet satisfying `pred`.
    pub fn nearest(&self, from: usize, pred: impl Fn(&Planet) -> bool) -> Option<u32> {
        let d = self.distances(from);
        (0..self.planets.len())
            .filter(|&i| pred(&self.planets[i]))
            .filter_map(|i| d[i])
            .min()
    }

    /// Connected, every seat has a home, lanes lie on empty hexes, and
    /// every start has a star and science within reach.
    pub fn is_sound(&self, players: u8) -> bool {
        let homes = Seat::all(players as usize).all(|s| self.planets.iter().filter(|p| p.home == Some(s)).count() == 1);
        let lanes_ok = self.lanes.iter().all(|l| self.at(l.hex).is_none());
        homes
            && lanes_ok
            && !self.planets.is_empty()
            && self.distances(0).iter().all(Option::is_some)
            && self.planets.iter().any(|p| p.stars > 0)
            && self.planets.iter().any(|p| p.science > 0)
    }
}

fn random_template(players: u8, rng: &mut GameRng) -> Template {
    let fixed = fixed_template(players);
    let radius = fixed.radius;
    let home = fixed.planets[0].0;
    let n = players as usize;
    let in_map = |h: Hex| h.length() <= radius;
    let mut used: Vec<Hex> = Vec::new();
    let claim = |used: &mut Vec<Hex>, h: Hex| {
        for k in 0..n {
            used.push(sym(players, k, h));
        }
    };
    let mut planets = vec![(home, 2, 0, 0), (Hex::new(0, 0), 1, 2, 0)];
    claim(&mut used, home);
    claim(&mut used, Hex::new(0, 0));
    // A path from the home towards the centre, so the map is connected.
    let mut cur = home;
    while cur.distance(Hex::new(0, 0)) > 1 {
        let steps: Vec<Hex> = cur
            .neighbors()
            .into_iter()
            .filter(|h| h.length() < cur.length())
            .collect();
        cur = *rng.pick(&steps).expect("a step inwards");
        if !used.contains(&cur) {
            planets.push((cur, 1, 0, 0));
            claim(&mut used, cur);
        }
    }
    // Then planets grown next to existing ones.
    let extra = 3 + rng.below(3) as usize;
    let mut tries = 0;
    while planets.len() < 2 + extra + 2 && tries < 200 {
        tries += 1;
        let base = planets[rng.below(planets.len() as u32) as usize].0;
        let h = base.neighbor(rng.below(6) as usize);
        let images: Vec<Hex> = (0..n).map(|k| sym(players, k, h)).collect();
        if !in_map(h) || images.iter().any(|i| used.contains(i)) {
            continue;
        }
        planets.push((h, 1 + rng.below(2), 0, 0));
        claim(&mut used, h);
    }
    // Stars and science: at least one of each, not on the home.
    let k = planets.len() as u32;
    let star = 2 + rng.below(k - 2) as usize;
    planets[star].2 = 1;
    let mut sci = 2 + rng.below(k - 2) as usize;
    if sci == star && k > 3 {
        sci = 2 + (sci - 1) % (k as usize - 2);
    }
    planets[sci].3 = 1;
    if rng.below(2) == 0 {
        let extra = 2 + rng.below(k - 2) as usize;
        planets[extra].3 += 1;
    }
    // One hyperlane on an empty hex whose two opposite neighbours are planets.
    let mut lanes = Vec::new();
    let mut cands = Vec::new();
    for h in Hex::spiral(radius) {
        let images: Vec<Hex> = (0..n).map(|k| sym(players, k, h)).collect();
        let distinct = (1..n).all(|k| images[k] != h);
        if !distinct || images.iter().any(|i| used.contains(i)) {
            continue;
        }
        for dir in 0..3 {
            let (a, b) = (h.neighbor(dir), h.neighbor(dir + 3));
            let planet = |x: Hex| (0..n).any(|k| planets.iter().any(|p| sym(players, k, p.0) == x));
            if planet(a) && planet(b) {
                cands.push((h, dir));
            }
        }
    }
    if let Some(&c) = rng.pick(&cands) {
        lanes.push(c);
    }
    Template { radius, planets, lanes }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fair(map: &Map, players: u8) {
        assert!(map.is_sound(players), "{map:?}");
        let homes: Vec<usize> = Seat::all(players as usize).map(|s| map.home_of(s)).collect();
        let star: Vec<_> = homes.iter().map(|&h| map.nearest(h, |p| p.stars > 0)).collect();
        let sci: Vec<_> = homes.iter().map(|&h| map.nearest(h, |p| p.science > 0)).collect();
        assert!(star.iter().all(|d| *d == star[0] && d.is_some()), "stars {star:?}");
        assert!(sci.iter().all(|d| *d == sci[0] && d.is_some()), "science {sci:?}");
        // Totals seen from each home are equal too (sorted distance profiles).
        let profile = |h: usize| {
            let d = map.distances(h);
            let mut v: Vec<(u32, u32, u32, u32)> = (0..map.planets.len())
                .map(|i| {
                    let p = &map.planets[i];
                    (d[i].unwrap(), p.stars, p.science, p.production)
                })
                .collect();
            v.sort();
            v
        };
        let p0 = profile(homes[0]);
        for &h in &homes[1..] {
            assert_eq!(profile(h), p0);
        }
        for l in &map.lanes {
            assert_eq!(l.ends.0.distance(l.ends.1), 2);
            assert_eq!(l.ends.0.distance(l.hex), 1);
        }
    }

    #[test]
    fn fixed_maps_are_fair() {
        for players in 2..=4 {
            let map = Map::fixed(players);
            fair(&map, players);
            assert!(!map.lanes.is_empty());
            let names: std::collections::BTreeSet<_> = map.planets.iter().map(|p| &p.name).collect();
            assert_eq!(names.len(), map.planets.len());
        }
        let m = Map::fixed(2);
        assert_eq!(m.planets.len(), 13);
        assert_eq!(m.planets[0].name, "Nexus");
    }

    #[test]
    fn random_maps_are_fair_and_seeded() {
        for seed in 0..60 {
            for players in 2..=4 {
                let map = Map::random(players, &mut GameRng::seeded(seed));
                fair(&map, players);
                assert_eq!(map, Map::random(players, &mut GameRng::seeded(seed)));
            }
        }
    }
}
