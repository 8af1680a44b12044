// The native core of Ra: a flat, plain-old-data game state and the rules over it.
//
// A port of src/ra/state.py, engine.py, scoring.py and setup.py (rules: shared RULES.md,
// sections R1-R9).  The Python engine stays the reference: tests/native compares the two
// after every decision.  The layout is described in native/README.md.  Cloning is a memcpy.
#pragma once

#include <cstdint>
#include <vector>
#include <cstring>

namespace ra {

// --- tiles (R1.1), in the order of ra.tiles.Tile ------------------------------------------
constexpr int NUM_KINDS = 23;
constexpr int T_RA = 0, T_GOD = 1, T_GOLD = 2, T_PHARAOH = 3, T_NILE = 4, T_FLOOD = 5;
constexpr int T_FIRST_CIV = 6, T_LAST_CIV = 10;            // astronomy .. art
constexpr int T_FIRST_MONUMENT = 11, T_LAST_MONUMENT = 18;  // fortress .. temple
constexpr int T_FUNERAL = 19, T_DROUGHT = 20, T_UNREST = 21, T_EARTHQUAKE = 22;
constexpr int T_FIRST_DISASTER = T_FUNERAL;
constexpr int BAG_SIZE = 180;
constexpr int MAX_SUN = 16, CENTER_SUN = 1;
constexpr int MAX_PLAYERS = 5, MIN_PLAYERS = 2;
constexpr int AUCTION_TRACK_SIZE = 8;  // R3.2
constexpr int EPOCHS = 3;              // R8.1
constexpr int STARTING_SCORE = 10;     // R2.1
extern const uint8_t TILE_COUNTS[NUM_KINDS];

// --- actions: the dense indices of ra.Action.index ------------------------------------------
// 0 draw, 1 ra, 2 done, 3 pass, 4..24 god <tile 2..22>, 25..40 bid <sun 1..16>,
// 41..53 discard <tile 6..18>.
constexpr int NUM_ACTIONS = 54;
constexpr int A_DRAW = 0, A_INVOKE = 1, A_DONE = 2, A_PASS = 3;
constexpr int god_action(int tile) { return 2 + tile; }
constexpr int bid_action(int sun) { return 24 + sun; }
constexpr int discard_action(int tile) { return 35 + tile; }
constexpr bool is_god(int a) { return a >= 4 && a <= 24; }
constexpr bool is_bid(int a) { return a >= 25 && a <= 40; }
constexpr bool is_discard(int a) { return a >= 41 && a <= 53; }
constexpr int action_arg(int a) { return is_god(a) ? a - 2 : is_bid(a) ? a - 24 : a - 35; }

// --- phases and auction kinds (ra.state) ----------------------------------------------------
constexpr int PHASE_ACTION = 0, PHASE_BID = 1, PHASE_GOD = 2, PHASE_DISCARD = 3, PHASE_OVER = 4,
              PHASE_ACTION_NO_DRAW = 5;
constexpr int DRAWN = 0, VOLUNTARY = 1, FORCED = 2;
// AFTER_GOD_TURN: R3.5 "2008 disaster timing", the disasters taken this turn resolved after it.
constexpr int AFTER_AUCTION = 0, AFTER_GOD = 1, AFTER_GOD_TURN = 2;

// One finished epoch's scoring of one seat: the 7 categories of ra.scoring.CATEGORIES,
// the score before and after (R7.1).
struct Breakdown {
    int16_t points[7];
    int16_t before, after;
};

// The whole game position.  Plain data: copy it with memcpy (or `=`).
struct State {
    uint8_t n;            // players, 2..5
    uint8_t ra_end;       // Ra tiles that end an epoch (R2.2)
    uint8_t epoch;        // 1..3
    uint8_t phase;        // PHASE_*
    int8_t to_move;       // -1 once over
    int8_t ra_player;     // -1 before the first auction
    uint8_t auction_kind; // DRAWN / VOLUNTARY / FORCED
    uint8_t high;         // current high bid (0: none)
    int8_t high_bidder;   // -1: none
    uint8_t must_bid;     // R4.3
    uint8_t unrest_left, quake_left, after_discard;
    uint8_t center;       // the centre sun (R4.4)
    uint8_t ra;           // Ra tiles on the Ra track
    uint8_t track_len;
    uint8_t drawn;        // tiles drawn from the bag
    uint8_t bag_size;
    uint8_t num_epochs_scored;
    uint8_t late_disasters;  // R3.5: 1 for the variant "2008 disaster timing", 0 for "immediate"
    uint16_t num_decisions;
    uint32_t suns[MAX_PLAYERS];  // face-up suns, bit s = sun s
    uint32_t used[MAX_PLAYERS];  // face-down suns (R4.4)
    int16_t scores[MAX_PLAYERS];
    uint8_t track[AUCTION_TRACK_SIZE];
    // R3.5, "2008 disaster timing": Disasters taken with God tiles this turn, not yet resolved,
    // in the order taken (at most 8: there are 8 God tiles).
    uint8_t pending_len;
    uint8_t pending[AUCTION_TRACK_SIZE];
    uint8_t displays[MAX_PLAYERS][NUM_KINDS];
    uint8_t unseen[NUM_KINDS];  // tiles left in the bag by kind (public, R9.1)
    uint8_t box[NUM_KINDS];     // tiles removed from the game
    uint8_t bag[BAG_SIZE];      // bag order; bag[drawn..bag_size) is still to come
    Breakdown breakdowns[EPOCHS][MAX_PLAYERS];
};

// A small, fast random generator (SplitMix64 seeding xoshiro256**).
struct Rng {
    uint64_t s[4];
    explicit Rng(uint64_t seed = 0) { reseed(seed); }
    static uint64_t splitmix(uint64_t& x) {
        uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    void reseed(uint64_t seed) {
        uint64_t x = seed;
        for (auto& v : s) v = splitmix(x);
    }
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t next() {
        uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
        return r;
    }
    // Uniform in 0..bound-1.
    uint32_t below(uint32_t bound) { return (uint32_t)(((next() >> 32) * (uint64_t)bound) >> 32); }
    // Uniform in [0, 1).
    double uniform() { return (double)(next() >> 11) * 0x1.0p-53; }
};

inline int bit_length(uint32_t m) { return m ? 32 - __builtin_clz(m) : 0; }
inline int popcount(uint64_t m) { return __builtin_popcountll(m); }
// One of the set bits of `m` (an action of a legal mask), uniformly.
inline int random_bit(uint64_t m, Rng& rng) {
    int k = (int)rng.below((uint32_t)popcount(m));
    while (k--) m &= m - 1;
    return __builtin_ctzll(m);
}
// Insertion sort of a few tiles (a lot's disasters: at most 8).
inline void sort_small(uint8_t* a, int n) {
    for (int i = 1; i < n; ++i)
        for (int j = i; j > 0 && a[j - 1] > a[j]; --j) {
            uint8_t t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
}

// --- setup (R2) ---------------------------------------------------------------------------------
// A new game from its sun groups (bitmasks by seat), bag order and bag content (R2); the
// first epoch begins.  Returns false for bad input.
bool setup_state(State& s, int n, const uint32_t sun_masks[], const uint8_t* bag_order, int bag_size,
                 const uint8_t contents[NUM_KINDS]);
// A standard or long-2p game dealt from a seed: sun deal as ra.setup (same permutation),
// the bag shuffled by the native generator.  long_suns = 0 for the standard game.
bool new_game(State& s, int n, uint64_t seed, int long_suns);
// The same with the disaster timing of R3.5 (late: the "2008 disaster timing" variant).
bool new_game(State& s, int n, uint64_t seed, int long_suns, bool late_disasters);
uint64_t mix64(uint64_t seed);

// --- rules --------------------------------------------------------------------------------------
uint64_t legal_mask(const State& s);
// Apply a legal action index (checked: false and no change if illegal).
bool apply(State& s, int action);
// Apply an action index known to be legal (no check: for the search and the playouts).
void apply_legal(State& s, int action);
// Put `tile` at the top of the rest of the bag (a chosen chance outcome); false if none is left.
bool stack_draw(State& s, int tile);
int winner(const State& s);
inline bool is_over(const State& s) { return s.phase == PHASE_OVER; }
// Shuffle the bag's undrawn part (a determinization from public information, R9.1).
void shuffle_rest(State& s, Rng& rng);
// The undrawn part of the bag rebuilt from the unseen counts (kind order), then shuffled.
void redeal_rest(State& s, Rng& rng);
int majority(const int* values, int n, int seat, int most, int fewest);
int civilization_points(const uint8_t* d);
int monument_points(const uint8_t* d);
int sun_total(uint32_t mask);

// --- bots ---------------------------------------------------------------------------------------
// ra.bots.valuation.Weights, in field order.
struct Weights {
    double pharaoh_future = 0.55, nile_future = 0.45, flood_chance = 0.5, civ_chance = 0.45,
           monument_potential = 1.0, god_option = 0.5, sun_step = 0.35, sun_cost = 5.0, min_gain = 0.5,
           invoke_gain = 4.0, invoke_lead = 0.9, god_margin = 1.0;
};
// The learned evaluation (native/value.cpp, ra.bots.value_model): coefficients by player
// count (2-5) and the epoch that starts (2, 3), over VALUE_FEATURES features of a seat.
constexpr int VALUE_FEATURES = 14;
struct ValueModel {
    double coef[MAX_PLAYERS - MIN_PLAYERS + 1][2][VALUE_FEATURES];
};
bool at_epoch_start(const State& s);
// The features of `seat`; the last is the heuristic's projected gain (projected minus score).
void value_features(const State& s, int seat, double heuristic_gain, double f[VALUE_FEATURES]);
// Each seat's expected final score by the model, given the heuristic's projected scores; false
// (nothing written) unless at the start of epoch 2 or 3, the only positions it was fitted on.
bool learned_scores(const State& s, const ValueModel& model, const double heuristic[MAX_PLAYERS],
                    double out[MAX_PLAYERS]);

int greedy_action(const State& s, const Weights& w);
// The greedy action, or with chance `epsilon` a uniformly random legal one (no draw when 0).
inline int epsilon_greedy_action(const State& s, const Weights& w, double epsilon, Rng& rng) {
    if (epsilon > 0.0 && rng.uniform() < epsilon) return random_bit(legal_mask(s), rng);
    return greedy_action(s, w);
}
// Scores so far plus what each player keeps: by the learned model when `model` is given and the
// position is an epoch's start, else by the valuation's heuristic.
void projected_scores(const State& s, const Weights& w, double out[MAX_PLAYERS],
                      const ValueModel* model = nullptr);

struct PolicyNet;  // native/policy.hpp

struct MctsConfig {
    int64_t iterations = 600;
    double seconds = 0.0;  // > 0: a time budget instead
    double exploration = 0.5;
    int horizon = 1;
    double margin_scale = 20.0;
    double win_weight = 0.25;
    bool greedy_rollout = true;
    double epsilon = 0.0;  // greedy rollouts: a random legal action with this chance
    const ValueModel* model = nullptr;  // the learned evaluation at the cut, or the heuristic
    // PUCT (ra.bots.policy): the learned policy as every node's prior, `c_puct` its weight; the
    // mover's observation hides the others' scores when `hidden` (R9.1).  Null: plain UCT.
    const PolicyNet* prior = nullptr;
    double c_puct = 1.0;
    bool hidden = false;
    // The value net (ra.bots.value_net) judging a new leaf that is not the game's end: each
    // seat's reward is (1 - value_weight) * the rollout's + value_weight * the net's chance (no
    // rollout at weight 1).  Null: rollouts alone.
    const PolicyNet* value = nullptr;
    double value_weight = 0.0;
    // Called every 256 iterations when set; returning false abandons the search (action -1).
    bool (*poll)(void*) = nullptr;
    void* poll_arg = nullptr;
};
// The chosen action index for the player to move; `iterations_done` gets the rollouts made.
int mcts_choose(const State& root, const MctsConfig& cfg, const Weights& w, uint64_t seed,
                int64_t* iterations_done);

// What the search learnt about one action at the root (the advisor's numbers, ra.bots.advisor).
struct RootStat {
    int action = -1;
    int visits = 0;
    double reward = 0.0;               // summed reward of the mover (the search's own value)
    double margin = 0.0;               // summed score margin of the mover, in points
    double leads[MAX_PLAYERS] = {};    // iterations each player ended ahead in (ties shared)
};

// mcts_choose, also filling `stats` with every root action tried (in the order first tried).
int mcts_search(const State& root, const MctsConfig& cfg, const Weights& w, uint64_t seed,
                int64_t* iterations_done, std::vector<RootStat>* stats);

}  // namespace ra
