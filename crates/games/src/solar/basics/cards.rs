//! The Game cards: the 40-card deck (22 different cards, codes 1 to 22)
//! and every colour's 4 own cards (codes O1 to O4), as data: name, code,
//! kind, the effect text as the rules page prints it, copies in the deck,
//! and the numbers each effect needs ([`CardParams`]).
//!
//! The effects themselves are the rules engine's. Read off
//! `docs/rules/solar.md` (*Cards*, *The deck*, *Your own cards*); the tests
//! pin every card to the page's text.

use super::board::name_key;
use serde::{Deserialize, Serialize};
use std::fmt;

/// "The **40 deck cards** are shuffled".
pub const DECK_SIZE: u32 = 40;

/// What a Benefit card goes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Timing {
    /// "*claim* Benefits are played **after a claim roll, while you owe
    /// `pay`**".
    Claim,
    /// "*Move* / *Buy* Benefits are played **before your action**; they
    /// change your next Move (or Buy) this turn and are wasted if you take
    /// none."
    Move,
    /// As [`Timing::Move`], for a Buy.
    Buy,
}

/// "There are three kinds of Game card. **No card can be played outside
/// your own turn.**"
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardKind {
    /// "playing it is your action for the turn."
    Action,
    /// "play it any time in your turn: before your action, or while you owe
    /// a claim's `pay`. It does not use your action."
    FreeAction,
    /// "goes with an action. Each says which".
    Benefit(Timing),
}

impl CardKind {
    /// "Action", "Free Action", "claim Benefit", "Move Benefit", "Buy
    /// Benefit" (as the own cards are labelled on the page).
    pub fn label(self) -> &'static str {
        match self {
            CardKind::Action => "Action",
            CardKind::FreeAction => "Free Action",
            CardKind::Benefit(Timing::Claim) => "claim Benefit",
            CardKind::Benefit(Timing::Move) => "Move Benefit",
            CardKind::Benefit(Timing::Buy) => "Buy Benefit",
        }
    }

    /// Whether playing the card is the turn's one action.
    pub fn is_action(self) -> bool {
        self == CardKind::Action
    }
}

impl fmt::Display for CardKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A Game card: the 22 different cards of the deck, then the 4 own cards.
/// Variants are in code order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum CardId {
    // Claim Benefits
    Mercenaries,
    OrbitalBombardment,
    Recalibrate,
    FieldMedics,
    Infiltrators,
    PerfectPlan,
    TrophyHunters,
    // Move and Buy Benefits
    Afterburners,
    HeavyLift,
    WarBonds,
    // Free Actions
    TradeDeal,
    TaxCollection,
    IntelligenceReport,
    Requisition,
    Garrison,
    DoubleTime,
    Overtime,
    // Actions
    CrisisTeam,
    Agitators,
    Survey,
    Saboteurs,
    Espionage,
    // Own cards
    ReserveFunds,
    EliteTroops,
    RapidDeployment,
    EmergencyPowers,
}

/// The deck: each deck card and its copies ("(×3)"), in code order.
pub const DECK: [(CardId, u32); 22] = [
    (CardId::Mercenaries, 3),
    (CardId::OrbitalBombardment, 2),
    (CardId::Recalibrate, 2),
    (CardId::FieldMedics, 2),
    (CardId::Infiltrators, 2),
    (CardId::PerfectPlan, 1),
    (CardId::TrophyHunters, 1),
    (CardId::Afterburners, 2),
    (CardId::HeavyLift, 2),
    (CardId::WarBonds, 2),
    (CardId::TradeDeal, 2),
    (CardId::TaxCollection, 2),
    (CardId::IntelligenceReport, 2),
    (CardId::Requisition, 1),
    (CardId::Garrison, 2),
    (CardId::DoubleTime, 2),
    (CardId::Overtime, 1),
    (CardId::CrisisTeam, 2),
    (CardId::Agitators, 2),
    (CardId::Survey, 2),
    (CardId::Saboteurs, 2),
    (CardId::Espionage, 1),
];

/// "Every colour has the **same four own cards**, printed in its colour.
/// Each player starts with them in hand." Never in the deck: "one that is
/// played or discarded leaves the game".
pub const OWN_CARDS: [CardId; 4] = [
    CardId::ReserveFunds,
    CardId::EliteTroops,
    CardId::RapidDeployment,
    CardId::EmergencyPowers,
];

/// The numbers a card's effect needs, as the page gives them. Fields a
/// card does not use are 0, `None` or `false` ([`CardParams::NONE`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CardParams {
    /// CP added to the claim ("+2 CP").
    pub cp: u32,
    /// Casualties cancelled, at most ("up to 2 fewer casualties").
    pub fewer_casualties: u32,
    /// £ taken from the bank ("take £3").
    pub money: u32,
    /// £ taken per planet where you have a mine or factory.
    pub money_per_planet: u32,
    /// Cards drawn ("draw 2 cards").
    pub draw: u32,
    /// The Move's range ("up to 3 planets"); range does not add up.
    pub move_range: Option<u32>,
    /// The Move may take ready tanks at the start planet.
    pub moves_tanks: bool,
    /// Units the Buy may buy ("up to 3 units").
    pub buy_limit: Option<u32>,
    /// £ off each unit bought ("each £1 cheaper").
    pub discount: u32,
    /// Infantry placed in Earth orbit ("place 2 infantry").
    pub infantry: u32,
    /// Tanks placed ("place 1 tank").
    pub tanks: u32,
    /// Actions taken after your action ("take one more action").
    pub extra_actions: u32,
    /// Pass cubes put back on the Pass card ("put one Pass cube ... back").
    pub pass_cubes_back: u32,
    /// £ paid to the bank to play it ("pay £3").
    pub price: u32,
}

impl CardParams {
    /// No numbers.
    pub const NONE: CardParams = CardParams {
        cp: 0,
        fewer_casualties: 0,
        money: 0,
        money_per_planet: 0,
        draw: 0,
        move_range: None,
        moves_tanks: false,
        buy_limit: None,
        discount: 0,
        infantry: 0,
        tanks: 0,
        extra_actions: 0,
        pass_cubes_back: 0,
        price: 0,
    };
}

impl Default for CardParams {
    fn default() -> CardParams {
        CardParams::NONE
    }
}

impl CardId {
    /// Every card, deck cards first, in code order.
    pub const ALL: [CardId; 26] = [
        CardId::Mercenaries,
        CardId::OrbitalBombardment,
        CardId::Recalibrate,
        CardId::FieldMedics,
        CardId::Infiltrators,
        CardId::PerfectPlan,
        CardId::TrophyHunters,
        CardId::Afterburners,
        CardId::HeavyLift,
        CardId::WarBonds,
        CardId::TradeDeal,
        CardId::TaxCollection,
        CardId::IntelligenceReport,
        CardId::Requisition,
        CardId::Garrison,
        CardId::DoubleTime,
        CardId::Overtime,
        CardId::CrisisTeam,
        CardId::Agitators,
        CardId::Survey,
        CardId::Saboteurs,
        CardId::Espionage,
        CardId::ReserveFunds,
        CardId::EliteTroops,
        CardId::RapidDeployment,
        CardId::EmergencyPowers,
    ];

    pub fn name(self) -> &'static str {
        match self {
            CardId::Mercenaries => "Mercenaries",
            CardId::OrbitalBombardment => "Orbital Bombardment",
            CardId::Recalibrate => "Recalibrate",
            CardId::FieldMedics => "Field Medics",
            CardId::Infiltrators => "Infiltrators",
            CardId::PerfectPlan => "Perfect Plan",
            CardId::TrophyHunters => "Trophy Hunters",
            CardId::Afterburners => "Afterburners",
            CardId::HeavyLift => "Heavy Lift",
            CardId::WarBonds => "War Bonds",
            CardId::TradeDeal => "Trade Deal",
            CardId::TaxCollection => "Tax Collection",
            CardId::IntelligenceReport => "Intelligence Report",
            CardId::Requisition => "Requisition",
            CardId::Garrison => "Garrison",
            CardId::DoubleTime => "Double Time",
            CardId::Overtime => "Overtime",
            CardId::CrisisTeam => "Crisis Team",
            CardId::Agitators => "Agitators",
            CardId::Survey => "Survey",
            CardId::Saboteurs => "Saboteurs",
            CardId::Espionage => "Espionage",
            CardId::ReserveFunds => "Reserve Funds",
            CardId::EliteTroops => "Elite Troops",
            CardId::RapidDeployment => "Rapid Deployment",
            CardId::EmergencyPowers => "Emergency Powers",
        }
    }

    /// The card code: "1" to "22" for deck cards, "O1" to "O4" for own
    /// cards ("Numbers in brackets are card codes (their listing order)").
    pub fn code(self) -> &'static str {
        const CODES: [&str; 26] = [
            "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19",
            "20", "21", "22", "O1", "O2", "O3", "O4",
        ];
        CODES[self as usize]
    }

    pub fn kind(self) -> CardKind {
        use CardId::*;
        match self {
            Mercenaries | OrbitalBombardment | Recalibrate | FieldMedics | Infiltrators | PerfectPlan
            | TrophyHunters | EliteTroops => CardKind::Benefit(Timing::Claim),
            Afterburners | HeavyLift | RapidDeployment => CardKind::Benefit(Timing::Move),
            WarBonds => CardKind::Benefit(Timing::Buy),
            TradeDeal | TaxCollection | IntelligenceReport | Requisition | Garrison | DoubleTime | Overtime
            | ReserveFunds => CardKind::FreeAction,
            CrisisTeam | Agitators | Survey | Saboteurs | Espionage | EmergencyPowers => CardKind::Action,
        }
    }

    /// Whether this is an own card (never in the deck; leaves the game
    /// when played or discarded).
    pub fn is_own(self) -> bool {
        OWN_CARDS.contains(&self)
    }

    /// Copies in the deck; 0 for an own card.
    pub fn count(self) -> u32 {
        DECK.iter().find(|(card, _)| *card == self).map_or(0, |&(_, n)| n)
    }

    /// The effect, word for word as the rules page prints it (without its
    /// emphasis). Options of `play card:NAME` lead, as on the page.
    pub fn text(self) -> &'static str {
        match self {
            CardId::Mercenaries => "+2 CP for this claim.",
            CardId::OrbitalBombardment => {
                "+3 CP for this claim. Only if you have at least one spaceship (ready or spent) at that planet."
            }
            CardId::Recalibrate => {
                "die:1|2|3: reroll that die. The new result replaces it; the cost and the skull count are worked \
                 out again from the three dice as they now are."
            }
            CardId::FieldMedics => "this claim causes up to 2 fewer casualties.",
            CardId::Infiltrators => {
                "Tension claims only: the defence value of this claim is halved, rounded down (5 → 2). At most one \
                 Infiltrators per claim."
            }
            CardId::PerfectPlan => {
                "the dice add nothing to this claim's cost: cost = defence value, even after rerolls. Skulls still \
                 cause casualties."
            }
            CardId::TrophyHunters => "claims of an Alien or Tension tile only: +4 CP.",
            CardId::Afterburners => {
                "your Move this turn may go up to 3 planets; you may claim after it if the group moved 1 or 2."
            }
            CardId::HeavyLift => {
                "your Move this turn may take any of your ready tanks at the start planet with the group (the group \
                 still needs a spaceship)."
            }
            CardId::WarBonds => {
                "your Buy this turn may buy up to 3 units, each £1 cheaper (infantry £1, tank £2, spaceship £3). \
                 Placement rules are unchanged."
            }
            CardId::TradeDeal => "take £3.",
            CardId::TaxCollection => "take £1 for each planet where you have at least one mine or factory.",
            CardId::IntelligenceReport => "draw 2 cards.",
            CardId::Requisition => "place 2 infantry from your supply in Earth orbit, ready (1 if you have only 1).",
            CardId::Garrison => {
                "at:PLANET: place 1 tank from your supply in orbit, ready, at Earth or at a planet where you have a \
                 mine or factory."
            }
            CardId::DoubleTime => {
                "after your action this turn, take one more action; it may not be pass. If your action was a \
                 failed claim, or took the last Pass cube, the extra action is lost. end skips it. Two Double Times \
                 give two extra actions."
            }
            CardId::Overtime => {
                "put one Pass cube taken this period back on the Pass card. Only if at least one has been taken."
            }
            CardId::CrisisTeam => {
                "tile:TILE: discard one Crisis tile from a planet where you have at least one unit (ready or \
                 spent). No VP."
            }
            CardId::Agitators => {
                "tile:TILE to:PLANET: move one Crisis tile from any planet to an adjacent planet that is not \
                 flipped and has no Alien tile. It keeps its defence and skull mark."
            }
            CardId::Survey => {
                "at:PLANET: a planet where you have a ready unit, not flipped, with no Alien tile. Draw the next \
                 tile from the bag and place it face up there. Not playable when the bag is empty."
            }
            CardId::Saboteurs => {
                "player:NAME piece:mine|factory at:PLANET: pay £3 to the bank and destroy that rival's mine or \
                 factory at a planet where you have a ready spaceship."
            }
            CardId::Espionage => {
                "player:NAME: a rival with at least one card. You see their hand and take one card of your choice \
                 (take card:NAME)."
            }
            CardId::ReserveFunds => "take £4.",
            CardId::EliteTroops => "+3 CP for this claim, and it causes 1 fewer casualty.",
            CardId::RapidDeployment => {
                "your Move this turn may go up to 3 planets and may take your ready tanks at the start planet (you \
                 may claim if the group moved 1 or 2)."
            }
            CardId::EmergencyPowers => "tile:TILE: discard one Crisis tile from any planet (no units needed). No VP.",
        }
    }

    /// The numbers of the card's effect (see [`CardParams`]).
    pub fn params(self) -> CardParams {
        let none = CardParams::NONE;
        match self {
            CardId::Mercenaries => CardParams { cp: 2, ..none },
            CardId::OrbitalBombardment => CardParams { cp: 3, ..none },
            CardId::FieldMedics => CardParams {
                fewer_casualties: 2,
                ..none
            },
            CardId::TrophyHunters => CardParams { cp: 4, ..none },
            CardId::Afterburners => CardParams {
                move_range: Some(3),
                ..none
            },
            CardId::HeavyLift => CardParams {
                moves_tanks: true,
                ..none
            },
            CardId::WarBonds => CardParams {
                buy_limit: Some(3),
                discount: 1,
                ..none
            },
            CardId::TradeDeal => CardParams { money: 3, ..none },
            CardId::TaxCollection => CardParams {
                money_per_planet: 1,
                ..none
            },
            CardId::IntelligenceReport => CardParams { draw: 2, ..none },
            CardId::Requisition => CardParams { infantry: 2, ..none },
            CardId::Garrison => CardParams { tanks: 1, ..none },
            CardId::DoubleTime => CardParams {
                extra_actions: 1,
                ..none
            },
            CardId::Overtime => CardParams {
                pass_cubes_back: 1,
                ..none
            },
            CardId::Saboteurs => CardParams { price: 3, ..none },
            CardId::ReserveFunds => CardParams { money: 4, ..none },
            CardId::EliteTroops => CardParams {
                cp: 3,
                fewer_casualties: 1,
                ..none
            },
            CardId::RapidDeployment => CardParams {
                move_range: Some(3),
                moves_tanks: true,
                ..none
            },
            CardId::Recalibrate
            | CardId::Infiltrators
            | CardId::PerfectPlan
            | CardId::CrisisTeam
            | CardId::Agitators
            | CardId::Survey
            | CardId::Espionage
            | CardId::EmergencyPowers => none,
        }
    }

    /// "Planet, card and player names are typed without caring about
    /// capitals". Spaces, hyphens and underscores are ignored too
    /// (`trade-deal`, `TradeDeal`).
    pub fn by_name(text: &str) -> Option<CardId> {
        let key = name_key(text);
        CardId::ALL.into_iter().find(|c| name_key(c.name()) == key)
    }

    /// By code: `7`, `O2` (or `o2`).
    pub fn by_code(text: &str) -> Option<CardId> {
        let text = text.trim();
        CardId::ALL.into_iter().find(|c| c.code().eq_ignore_ascii_case(text))
    }

    /// The name and code: `Heavy Lift [9]`.
    pub fn label(self) -> String {
        format!("{} [{}]", self.name(), self.code())
    }
}

impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The 40 deck cards, unshuffled: every copy, in code order.
pub fn deck() -> Vec<CardId> {
    DECK.iter()
        .flat_map(|&(card, n)| std::iter::repeat_n(card, n as usize))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solar::basics::board::{UnitKind, BOOSTED_MOVE_RANGE, CARDS_DEALT, HAND_AT_SETUP};
    use crate::solar::page;
    use std::collections::BTreeSet;

    fn deck_cards() -> impl Iterator<Item = CardId> {
        DECK.iter().map(|&(card, _)| card)
    }

    /// The page's entry of a deck card: "[1] Mercenaries (×3) — +2 CP for
    /// this claim."
    fn deck_entry(card: CardId) -> String {
        format!(
            "[{}] {} (×{}) — {}",
            card.code(),
            card.name(),
            card.count(),
            card.text()
        )
    }

    /// The page's entry of an own card: "[O1] Reserve Funds — Free Action:
    /// take £4."
    fn own_entry(card: CardId) -> String {
        format!(
            "[{}] {} — {}: {}",
            card.code(),
            card.name(),
            card.kind().label(),
            card.text()
        )
    }

    #[test]
    fn the_deck_has_40_cards_with_the_pages_counts() {
        let total: u32 = DECK.iter().map(|&(_, n)| n).sum();
        assert_eq!(total, DECK_SIZE);
        assert_eq!(deck().len(), 40);
        let counts: Vec<u32> = DECK.iter().map(|&(_, n)| n).collect();
        assert_eq!(
            counts,
            [3, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 2, 1, 2, 2, 2, 2, 1]
        );
        let text = page();
        assert!(text.contains(&format!("The deck ({DECK_SIZE} cards)")));
        assert!(text.contains(&format!("The {DECK_SIZE} deck cards are shuffled")));
        for card in deck_cards() {
            let entry = deck_entry(card);
            assert!(text.contains(&entry), "not on the page: {entry}");
            assert!(!card.is_own());
            assert_eq!(deck().iter().filter(|&&c| c == card).count(), card.count() as usize);
        }
    }

    #[test]
    fn every_card_on_the_pages_deck_list_is_here() {
        let text = page();
        let start = text.find("## The deck").expect("the deck section");
        let end = start + text[start..].find("## Your own cards").expect("the own cards section");
        let section = &text[start..end];
        // Every "- [n] Name (×k) —" entry of the section.
        let mut listed = Vec::new();
        for item in section.split("- [").skip(1) {
            let (code, rest) = item.split_once("] ").expect("`[code] Name`");
            let (name, rest) = rest.split_once(" (×").expect("`Name (×k)`");
            let (count, _) = rest.split_once(')').expect("`(×k)`");
            listed.push((
                code.to_string(),
                name.to_string(),
                count.parse::<u32>().expect("a count"),
            ));
        }
        let ours: Vec<(String, String, u32)> = deck_cards()
            .map(|c| (c.code().to_string(), c.name().to_string(), c.count()))
            .collect();
        assert_eq!(listed, ours);
    }

    #[test]
    fn the_pages_totals_by_kind() {
        let count = |pred: &dyn Fn(CardKind) -> bool| -> u32 {
            DECK.iter().filter(|(c, _)| pred(c.kind())).map(|&(_, n)| n).sum()
        };
        let claim = count(&|k| k == CardKind::Benefit(Timing::Claim));
        let move_buy = count(&|k| matches!(k, CardKind::Benefit(Timing::Move | Timing::Buy)));
        let free = count(&|k| k == CardKind::FreeAction);
        let actions = count(&|k| k == CardKind::Action);
        assert_eq!((claim, move_buy, free, actions), (13, 6, 12, 9));
        let line = format!(
            "Totals: {claim} claim Benefits, {move_buy} Move/Buy Benefits, {free} Free Actions, {actions} Actions."
        );
        assert!(page().contains(&line), "not on the page: {line}");
    }

    /// Each deck card sits under the heading of its kind.
    #[test]
    fn deck_cards_are_listed_under_their_kind() {
        let text = page();
        let headings = [
            ("Claim Benefits — after a claim roll, while you owe pay:", "claim"),
            ("Move and Buy Benefits — before your action:", "move/buy"),
            ("Free Actions — any time in your turn:", "free"),
            ("Actions — your action for the turn:", "action"),
        ];
        let at: Vec<(usize, &str)> = headings
            .iter()
            .map(|(h, k)| (text.find(h).unwrap_or_else(|| panic!("no heading {h}")), *k))
            .collect();
        for card in deck_cards() {
            let pos = text.find(&deck_entry(card)).expect("the entry");
            let section = at.iter().filter(|(p, _)| *p < pos).map(|&(_, k)| k).next_back();
            let expected = match card.kind() {
                CardKind::Benefit(Timing::Claim) => "claim",
                CardKind::Benefit(Timing::Move | Timing::Buy) => "move/buy",
                CardKind::FreeAction => "free",
                CardKind::Action => "action",
            };
            assert_eq!(section, Some(expected), "{card}");
            // Move and Buy Benefits say which.
            match card.kind() {
                CardKind::Benefit(Timing::Move) => assert!(card.text().starts_with("your Move this turn")),
                CardKind::Benefit(Timing::Buy) => assert!(card.text().starts_with("your Buy this turn")),
                _ => {}
            }
        }
    }

    #[test]
    fn the_four_own_cards() {
        let text = page();
        assert_eq!(OWN_CARDS.len(), 4);
        for card in OWN_CARDS {
            let entry = own_entry(card);
            assert!(text.contains(&entry), "not on the page: {entry}");
            assert!(card.is_own());
            assert_eq!(card.count(), 0);
            assert!(card.code().starts_with('O'));
        }
        assert_eq!(OWN_CARDS.len() as u32 + CARDS_DEALT, HAND_AT_SETUP);
        assert!(text.contains("every hand starts with 6 cards (4 own + 2 drawn)"));
        assert_eq!(
            OWN_CARDS.map(CardId::kind),
            [
                CardKind::FreeAction,
                CardKind::Benefit(Timing::Claim),
                CardKind::Benefit(Timing::Move),
                CardKind::Action,
            ]
        );
        assert_eq!(CardId::ALL.len(), DECK.len() + OWN_CARDS.len());
    }

    #[test]
    fn names_and_codes_are_unique_and_found() {
        let names: BTreeSet<String> = CardId::ALL.iter().map(|c| name_key(c.name())).collect();
        assert_eq!(
            names.len(),
            CardId::ALL.len(),
            "names unique, even ignoring case and spaces"
        );
        let codes: BTreeSet<&str> = CardId::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(codes.len(), CardId::ALL.len());
        for (i, card) in CardId::ALL.into_iter().enumerate() {
            assert_eq!(card as usize, i, "ALL is in declaration order");
            assert_eq!(CardId::by_name(card.name()), Some(card));
            assert_eq!(CardId::by_name(&card.name().to_lowercase()), Some(card));
            assert_eq!(CardId::by_name(&card.name().to_uppercase()), Some(card));
            assert_eq!(CardId::by_code(card.code()), Some(card));
            assert_eq!(CardId::by_code(&card.code().to_lowercase()), Some(card));
        }
        // Deck codes are 1 to 22 in listing order.
        for (i, card) in deck_cards().enumerate() {
            assert_eq!(card.code(), (i + 1).to_string());
        }
        assert_eq!(CardId::by_name("trade deal"), Some(CardId::TradeDeal));
        assert_eq!(CardId::by_name("trade-deal"), Some(CardId::TradeDeal));
        assert_eq!(CardId::by_name(" Heavy Lift "), Some(CardId::HeavyLift));
        assert_eq!(CardId::by_name("Heavy"), None);
        assert_eq!(CardId::by_code("23"), None);
        assert_eq!(CardId::by_code("O5"), None);
        assert_eq!(CardId::HeavyLift.label(), "Heavy Lift [9]");
        let json = serde_json::to_string(&CardId::HeavyLift).unwrap();
        assert_eq!(serde_json::from_str::<CardId>(&json).unwrap(), CardId::HeavyLift);
    }

    /// Every number of [`CardParams`] is the number the card's text gives.
    #[test]
    fn params_match_the_texts() {
        for card in CardId::ALL {
            let p = card.params();
            let text = card.text();
            let says = |words: String| assert!(text.contains(&words), "{card}: `{words}` in `{text}`");
            if p.cp > 0 {
                says(format!("+{} CP", p.cp));
            }
            match p.fewer_casualties {
                0 => assert!(!text.contains("fewer casualt"), "{card}"),
                1 => says("1 fewer casualty".into()),
                n => says(format!("up to {n} fewer casualties")),
            }
            if p.money > 0 {
                says(format!("take £{}.", p.money));
            }
            if p.money_per_planet > 0 {
                says(format!("take £{} for each planet", p.money_per_planet));
            }
            if p.draw > 0 {
                says(format!("draw {} cards", p.draw));
            }
            match p.move_range {
                Some(r) => says(format!("may go up to {r} planets")),
                None => assert!(!text.contains("may go up to"), "{card}"),
            }
            assert_eq!(p.moves_tanks, text.contains("ready tanks"), "{card}");
            if let Some(n) = p.buy_limit {
                says(format!("may buy up to {n} units"));
            }
            if p.discount > 0 {
                says(format!("each £{} cheaper", p.discount));
            }
            if p.infantry > 0 {
                says(format!("place {} infantry", p.infantry));
            }
            if p.tanks > 0 {
                says(format!("place {} tank", p.tanks));
            }
            if p.extra_actions > 0 {
                assert_eq!(p.extra_actions, 1);
                says("take one more action".into());
            }
            if p.pass_cubes_back > 0 {
                assert_eq!(p.pass_cubes_back, 1);
                says("put one Pass cube".into());
            }
            if p.price > 0 {
                says(format!("pay £{}", p.price));
            }
            if let Some(r) = p.move_range {
                assert_eq!(r, BOOSTED_MOVE_RANGE);
            }
        }
        // War Bonds' prices are the units' prices less the discount.
        let discount = CardId::WarBonds.params().discount;
        let prices: Vec<String> = [UnitKind::Infantry, UnitKind::Tank, UnitKind::Spaceship]
            .iter()
            .map(|u| format!("{} £{}", u.name(), u.price() - discount))
            .collect();
        assert!(CardId::WarBonds.text().contains(&format!("({})", prices.join(", "))));
        assert_eq!(CardParams::default(), CardParams::NONE);
    }

    #[test]
    fn card_kinds() {
        assert!(CardId::Espionage.kind().is_action());
        assert!(!CardId::TradeDeal.kind().is_action());
        assert_eq!(CardId::WarBonds.kind().to_string(), "Buy Benefit");
        // The page's example: two Mercenaries give +4 CP.
        assert!(page().contains("two Mercenaries give +4 CP"));
        assert_eq!(CardId::Mercenaries.params().cp * 2, 4);
    }
}
