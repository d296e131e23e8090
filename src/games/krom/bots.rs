//! Built-in KROM bots. They plan on the player's own view (the board of its `state` message), as
//! any bot must: what lies under the opponent's camo is not there for them.
//!
//! Planning several actions on a view is not exact: a move or make onto a camouflaged space may
//! bump into a hidden enemy piece, and a shot across camo may hit a hidden piece first. The plan
//! marks every space whose content became uncertain as blocked and uses it no more that turn, so
//! every action it sends is legal whatever was hidden.

use rand::RngExt;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::rules::{Action, Board, Cell, Dir, FACTORIES, Kind, Pos, SIZE, next_to};
use crate::games::Side;

pub const BUILTINS: &[(&str, &str)] = &[
    (
        "random",
        "spends all its moves on random legal actions: moves, makes, camo, and shots at enemy pieces it can see",
    ),
    (
        "greedy",
        "shoots the best target it can see (the enemy factory first, whose space it knows even under camo: factories never move), else makes a gun where it has a target (camouflaging the space first when it has the moves), else builds walls toward the enemy factory",
    ),
];

type Grid = [[bool; SIZE]; SIZE];

fn at(g: &Grid, p: Pos) -> bool {
    g[p.y as usize][p.x as usize]
}

fn set(g: &mut Grid, p: Pos) {
    g[p.y as usize][p.x as usize] = true;
}

/// A turn being planned on a view.
pub struct Plan {
    board: Board,
    seat: Side,
    /// Spaces whose content is uncertain: neither used nor relied on again this turn.
    blocked: Grid,
    /// Camouflaged spaces known to be empty (camouflaged by this plan while certainly empty).
    sure: Grid,
    pub actions: Vec<Action>,
}

impl Plan {
    pub fn new(view: Board, seat: Side) -> Plan {
        Plan {
            board: view,
            seat,
            blocked: [[false; SIZE]; SIZE],
            sure: [[false; SIZE]; SIZE],
            actions: Vec::new(),
        }
    }

    /// Empty as far as the player can see, and not blocked: a legal target for move or make.
    fn open(&self, p: Pos) -> bool {
        self.board.cell(p).piece.is_none() && !at(&self.blocked, p)
    }

    /// Whether a space may hide an enemy piece.
    fn doubtful(&self, p: Pos) -> bool {
        let c = self.board.cell(p);
        at(&self.blocked, p) || (c.camo && c.piece.is_none() && !at(&self.sure, p))
    }

    fn own(&self, p: Pos) -> Option<Kind> {
        if at(&self.blocked, p) {
            return None;
        }
        self.board
            .cell(p)
            .piece
            .filter(|pc| pc.owner == self.seat)
            .map(|pc| pc.kind)
    }

    fn own_guns(&self) -> Vec<Pos> {
        Pos::all()
            .filter(|&p| self.own(p) == Some(Kind::Gun))
            .collect()
    }

    /// Spaces where a piece can be made now.
    fn makeable(&self) -> Vec<Pos> {
        let next = self.board.next_to_chain(self.seat);
        Pos::all()
            .filter(|&p| at(&next, p) && self.open(p))
            .collect()
    }

    /// What a shot from `from` going `dir` would surely be aimed at: the first piece the plan
    /// sees, if it is an enemy's and nothing blocked lies before it (a hidden enemy piece under
    /// camo on the way would be hit instead, which is fine). For `known_factory`, the enemy
    /// factory's space (factories never move) counts as a piece even under camo.
    fn target(&self, from: Pos, dir: Dir, known_factory: bool) -> Option<(Pos, Kind, u8)> {
        let enemy = self.seat.other();
        let mut p = from;
        while let Some(n) = p.step(dir) {
            if at(&self.blocked, n) {
                return None;
            }
            if let Some(pc) = self.board.cell(n).piece {
                return (pc.owner == enemy).then_some((n, pc.kind, pc.hits));
            }
            if known_factory && n == FACTORIES[enemy] {
                return Some((n, Kind::Factory, 3));
            }
            p = n;
        }
        None
    }

    /// Add an action (legal on what the plan knows) and update the plan.
    pub fn push(&mut self, action: Action) {
        self.actions.push(action);
        match action {
            Action::Pass => {}
            Action::Camo(p) => {
                let c = self.board.cell_mut(p);
                if !c.camo && c.piece.is_none() {
                    set(&mut self.sure, p);
                }
                c.camo = true;
            }
            Action::Move(from, to) => {
                let piece = self.board.cell_mut(from).piece.take();
                if self.doubtful(to) {
                    set(&mut self.blocked, from);
                    set(&mut self.blocked, to);
                } else {
                    self.board.cell_mut(to).piece = piece;
                }
            }
            Action::Make(p, kind) => {
                if self.doubtful(p) {
                    set(&mut self.blocked, p);
                } else {
                    self.board.cell_mut(p).piece = Some(super::rules::Piece::new(self.seat, kind));
                }
            }
            Action::Fire(gun, dir) => {
                let mut doubt = false;
                let mut p = gun;
                while let Some(n) = p.step(dir) {
                    if self.doubtful(n) {
                        doubt = true;
                    }
                    if let Some(mut pc) = self.board.cell(n).piece {
                        if doubt {
                            self.board.cell_mut(n).piece = None;
                            set(&mut self.blocked, n);
                        } else {
                            pc.hits -= 1;
                            if pc.hits == 0 {
                                self.board.set(n, Cell::default());
                            } else {
                                self.board.cell_mut(n).piece = Some(pc);
                            }
                        }
                        break;
                    }
                    p = n;
                }
            }
        }
    }

    /// Every action the random bot may pick now, by category: moves, makes, camo, shots.
    fn candidates(&self) -> [Vec<Action>; 4] {
        let mut moves = Vec::new();
        for f in Pos::all() {
            if matches!(self.own(f), Some(Kind::Wall | Kind::Gun)) {
                for t in f.neighbours() {
                    if self.open(t) {
                        moves.push(Action::Move(f, t));
                    }
                }
            }
        }
        let chain = self.board.chain(self.seat);
        let next = next_to(&chain);
        let makes = Pos::all()
            .filter(|&p| at(&next, p) && self.open(p))
            .flat_map(|p| [Action::Make(p, Kind::Wall), Action::Make(p, Kind::Gun)])
            .collect();
        let camos = Pos::all()
            .filter(|&p| (at(&chain, p) || at(&next, p)) && !self.board.cell(p).camo)
            .map(Action::Camo)
            .collect();
        let mut fires = Vec::new();
        for g in self.own_guns() {
            for d in Dir::ALL {
                if self.target(g, d, false).is_some() {
                    fires.push(Action::Fire(g, d));
                }
            }
        }
        [moves, makes, camos, fires]
    }

    fn random_action(&self, rng: &mut ChaCha8Rng) -> Action {
        let [moves, makes, camos, fires] = self.candidates();
        // Shots when there are any, half the time; otherwise a weighted category.
        if !fires.is_empty() && rng.random_bool(0.5) {
            return *fires.choose(rng).expect("not empty");
        }
        let weighted = [(&makes, 5), (&moves, 3), (&camos, 2), (&fires, 2)];
        let total: u32 = weighted
            .iter()
            .filter(|(v, _)| !v.is_empty())
            .map(|(_, w)| w)
            .sum();
        if total == 0 {
            return Action::Pass;
        }
        let mut roll = rng.random_range(0..total);
        for (v, w) in weighted {
            if v.is_empty() {
                continue;
            }
            if roll < w {
                return *v.choose(rng).expect("not empty");
            }
            roll -= w;
        }
        Action::Pass
    }

    /// The greedy bot's next action, with the moves left in the turn.
    fn greedy_action(&self, left: u32, rng: &mut ChaCha8Rng) -> Action {
        let score = |kind: Kind, hits: u8| -> i32 {
            let base = match kind {
                Kind::Factory => 300,
                Kind::Gun => 200,
                Kind::Wall => 100,
            };
            base - hits as i32 * 10
        };
        // 1. Shoot the best target in sight.
        let mut best: Option<(i32, Action)> = None;
        for g in self.own_guns() {
            for d in Dir::ALL {
                if let Some((_, kind, hits)) = self.target(g, d, true) {
                    let s = score(kind, hits);
                    if best.is_none_or(|(b, _)| s > b) {
                        best = Some((s, Action::Fire(g, d)));
                    }
                }
            }
        }
        if let Some((_, a)) = best {
            return a;
        }
        // 2. Make a gun where it has a target, on a space that is not doubtful (so it can fire
        //    this turn); camouflage the space first when there are moves for all three.
        let spaces = self.makeable();
        let mut best: Option<(i32, Pos)> = None;
        for &p in &spaces {
            if self.doubtful(p) {
                continue;
            }
            for d in Dir::ALL {
                if let Some((_, kind, hits)) = self.target(p, d, true) {
                    // A space already camouflaged (by this plan) comes first.
                    let camo = if self.board.cell(p).camo { 100_000 } else { 0 };
                    let s = camo + score(kind, hits) * 100 + rng.random_range(0..100);
                    if best.is_none_or(|(b, _)| s > b) {
                        best = Some((s, p));
                    }
                }
            }
        }
        if let Some((_, p)) = best {
            if left >= 3 && !self.board.cell(p).camo {
                return Action::Camo(p);
            }
            return Action::Make(p, Kind::Gun);
        }
        // 3. Build a wall toward the enemy factory.
        let goal = FACTORIES[self.seat.other()];
        if let Some(&p) = spaces
            .iter()
            .filter(|&&p| !self.doubtful(p))
            .min_by_key(|&&p| (p.distance(goal), rng.random_range(0..4u32)))
        {
            return Action::Make(p, Kind::Wall);
        }
        Action::Pass
    }
}

/// The actions of a built-in bot for a turn with `moves` moves, planned on `view` (the board
/// the player sees).
pub fn plan(name: &str, view: Board, seat: Side, moves: u32, rng: &mut ChaCha8Rng) -> Vec<Action> {
    let mut plan = Plan::new(view, seat);
    for i in 0..moves {
        let action = match name {
            "greedy" => plan.greedy_action(moves - i, rng),
            _ => plan.random_action(rng),
        };
        plan.push(action);
    }
    plan.actions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::krom::rules::{DEFAULT_CAP, State};
    use rand::SeedableRng;

    /// Many turns of both bots against each other: every planned turn is legal on the real
    /// board (the plan saw only the view).
    #[test]
    fn planned_turns_are_always_legal() {
        for seed in 0..40 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut s = State::new(120, DEFAULT_CAP);
            let names = [["random", "greedy"][seed as usize % 2], "random"];
            while !s.is_over() {
                let seat = s.to_move;
                let view = s.board.view(seat);
                let actions = plan(names[seat], view, seat, s.moves[seat], &mut rng);
                let before = s.board.clone();
                if let Err(e) = s.play_turn(&actions) {
                    panic!("seed {seed}: {actions:?} on {before:?}: {e}");
                }
            }
        }
    }

    #[test]
    fn greedy_beats_random_mostly() {
        let mut wins = 0;
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut s = State::new(200, DEFAULT_CAP);
            let g = Side::BOTH[seed as usize % 2];
            while !s.is_over() {
                let seat = s.to_move;
                let name = if seat == g { "greedy" } else { "random" };
                let actions = plan(name, s.board.view(seat), seat, s.moves[seat], &mut rng);
                s.play_turn(&actions).unwrap();
            }
            if s.winner == Some(g) {
                wins += 1;
            }
        }
        assert!(wins >= 15, "greedy won {wins} of 20");
    }
}
