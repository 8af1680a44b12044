// The rules of Ra over the flat State: a line-by-line port of ra.engine.Game and ra.state.State
// (rule references R1-R9 as there).  Kept identical to Python by tests/native.
#include <algorithm>

#include "state.hpp"

namespace ra {

const uint8_t TILE_COUNTS[NUM_KINDS] = {30, 8, 5, 25, 25, 12, 5, 5, 5, 5, 5, 5,
                                        5,  5, 5, 5,  5,  5,  5, 2, 2, 4, 2};

// R2.2 / R2.3: sun groups (highest first) and Ra track lengths, as in ra.setup.
static const uint8_t SUN_GROUPS[6][5][8] = {
    {},
    {},
    {{9, 6, 5, 2}, {8, 7, 4, 3}},
    {{13, 8, 5, 2}, {12, 9, 6, 3}, {11, 10, 7, 4}},
    {{13, 6, 2}, {12, 7, 3}, {11, 8, 4}, {10, 9, 5}},
    {{16, 7, 2}, {15, 8, 3}, {14, 9, 4}, {13, 10, 5}, {12, 11, 6}},
};
static const uint8_t LONG_2P_GROUPS[8][2][8] = {
    {}, {}, {}, {},
    {{9, 6, 4, 2}, {8, 7, 5, 3}},
    {{11, 8, 6, 4, 2}, {10, 9, 7, 5, 3}},
    {{13, 10, 8, 6, 4, 2}, {12, 11, 9, 7, 5, 3}},
    {{15, 12, 10, 8, 6, 4, 2}, {14, 13, 11, 9, 7, 5, 3}},
};
static const uint8_t RA_TRACK_LENGTH[6] = {0, 0, 6, 8, 9, 10};
static const int CIV_POINTS[6] = {-5, 0, 0, 5, 10, 15};                 // R7.2
static const int MONUMENT_KINDS_POINTS[9] = {0, 1, 2, 3, 4, 5, 6, 10, 15};  // R7.3
static const int MONUMENT_SET_POINTS[6] = {0, 0, 0, 5, 10, 15};         // R7.3

uint64_t mix64(uint64_t seed) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int sun_total(uint32_t mask) {
    int t = 0;
    for (int s = 0; mask; ++s, mask >>= 1)
        if (mask & 1) t += s;
    return t;
}

int majority(const int* values, int n, int seat, int most, int fewest) {
    int hi = values[0], lo = values[0];
    for (int i = 1; i < n; ++i) {
        hi = std::max(hi, values[i]);
        lo = std::min(lo, values[i]);
    }
    if (hi == lo) return 0;
    return values[seat] == hi ? most : values[seat] == lo ? fewest : 0;
}

int civilization_points(const uint8_t* d) {
    int kinds = 0;
    for (int t = T_FIRST_CIV; t <= T_LAST_CIV; ++t) kinds += d[t] ? 1 : 0;
    return CIV_POINTS[kinds];
}

int monument_points(const uint8_t* d) {
    int kinds = 0, sets = 0;
    for (int t = T_FIRST_MONUMENT; t <= T_LAST_MONUMENT; ++t) {
        int c = d[t];
        if (c) {
            ++kinds;
            sets += MONUMENT_SET_POINTS[c];
        }
    }
    return MONUMENT_KINDS_POINTS[kinds] + sets;
}

// --- the flow of play (ra.engine.Game) ------------------------------------------------------------

static void begin_turn(State& s, int p);
static void start_auction(State& s, int ra_player, int kind);
static void resolve_auction(State& s);
static void end_epoch(State& s);

static inline bool can_draw(const State& s) {  // R3.2
    return s.track_len < AUCTION_TRACK_SIZE && s.drawn < s.bag_size;
}

static inline bool can_use_god(const State& s, int p) {  // R3.2
    if (s.displays[p][T_GOD])
        for (int i = 0; i < s.track_len; ++i)
            if (s.track[i] != T_GOD) return true;
    return false;
}

static void begin_epoch(State& s) {
    // R6.4 / R2.4: the player holding the highest sun starts the epoch.
    int first = 0, best = -1;
    for (int i = 0; i < s.n; ++i) {
        int b = bit_length(s.suns[i]);
        if (b > best) best = b, first = i;
    }
    begin_turn(s, first);
}

static void invoke(State& s, int p) {  // R3.4
    start_auction(s, p, s.track_len >= AUCTION_TRACK_SIZE ? FORCED : VOLUNTARY);
}

static void begin_turn(State& s, int p) {
    // R3.1: skip players without a face-up sun (the caller guarantees one exists).
    while (!s.suns[p]) p = (p + 1) % s.n;
    s.to_move = (int8_t)p;
    if (can_draw(s)) {
        s.phase = PHASE_ACTION;
        return;
    }
    if (can_use_god(s, p)) {
        s.phase = PHASE_ACTION_NO_DRAW;
        return;
    }
    invoke(s, p);  // invoking Ra is the only legal action (R3.2)
}

static void draw(State& s, int p) {  // R3.3
    int t = s.bag[s.drawn++];
    s.unseen[t]--;
    if (t == T_RA) {
        s.ra++;
        if (s.ra >= s.ra_end)
            end_epoch(s);  // R6.1(a): no auction
        else
            start_auction(s, p, DRAWN);
    } else {
        s.track[s.track_len++] = (uint8_t)t;
        begin_turn(s, (p + 1) % s.n);
    }
}

static void next_bidder(State& s, int prev) {
    // R4.1: once around the table from the Ra player's left, ending with the Ra player.
    int n = s.n, rp = s.ra_player, b = prev;
    for (;;) {
        b = (b + 1) % n;
        int high = s.high;
        uint32_t above = s.suns[b] >> (high + 1);
        if (!above) {  // R4.2: automatic pass
            if (b == rp) {
                resolve_auction(s);
                return;
            }
            continue;
        }
        bool must = s.auction_kind == VOLUNTARY && b == rp && s.high_bidder < 0;
        if (must && !(above & (above - 1))) {  // R4.3 with a single sun: the bid is forced
            s.high = (uint8_t)(high + bit_length(above));
            s.high_bidder = (int8_t)b;
            resolve_auction(s);
            return;
        }
        s.phase = PHASE_BID;
        s.to_move = (int8_t)b;
        s.must_bid = must;
        return;
    }
}

static void start_auction(State& s, int ra_player, int kind) {
    s.ra_player = (int8_t)ra_player;
    s.auction_kind = (uint8_t)kind;
    s.high = 0;
    s.high_bidder = -1;
    next_bidder(s, ra_player);
}

static bool settle_discards(State& s, int p) {
    // R5.4: apply forced discards; true if p must now choose one.
    uint8_t* d = s.displays[p];
    while (s.unrest_left || s.quake_left) {
        int left = s.unrest_left ? s.unrest_left : s.quake_left;
        int lo = s.unrest_left ? T_FIRST_CIV : T_FIRST_MONUMENT;
        int hi = s.unrest_left ? T_LAST_CIV : T_LAST_MONUMENT;
        int kinds = 0, total = 0;
        for (int k = lo; k <= hi; ++k)
            if (d[k]) ++kinds, total += d[k];
        if (total > left && kinds > 1) {
            s.phase = PHASE_DISCARD;
            s.to_move = (int8_t)p;
            return true;
        }
        for (int k = lo; k <= hi; ++k) {  // no real choice: one kind only, or everything goes
            if (!d[k]) continue;
            int lose = std::min(left, (int)d[k]);
            d[k] -= lose;
            s.box[k] += lose;
            left -= lose;
        }
        if (s.unrest_left)
            s.unrest_left = 0;
        else
            s.quake_left = 0;
    }
    return false;
}

static bool resolve_disasters(State& s, int p, uint8_t* disasters, int count, int after) {
    // R5.1 / R5.3: one at a time, each destroying up to two tiles; Unrest and Earthquake may
    // leave a choice (R5.4), settled after.
    uint8_t* d = s.displays[p];
    sort_small(disasters, count);
    int unrest = 0, quake = 0;
    for (int i = 0; i < count; ++i) {
        int t = disasters[i];
        s.box[t]++;
        if (t == T_FUNERAL) {
            int lose = std::min(2, (int)d[T_PHARAOH]);
            d[T_PHARAOH] -= lose;
            s.box[T_PHARAOH] += lose;
        } else if (t == T_DROUGHT) {
            int floods = std::min(2, (int)d[T_FLOOD]);
            int niles = std::min(2 - floods, (int)d[T_NILE]);
            d[T_FLOOD] -= floods;
            d[T_NILE] -= niles;
            s.box[T_FLOOD] += floods;
            s.box[T_NILE] += niles;
        } else {
            int lo = t == T_UNREST ? T_FIRST_CIV : T_FIRST_MONUMENT;
            int hi = t == T_UNREST ? T_LAST_CIV : T_LAST_MONUMENT;
            int held = 0;
            for (int k = lo; k <= hi; ++k) held += d[k];
            held -= t == T_UNREST ? unrest : quake;
            int lose = std::min(2, held);
            if (t == T_UNREST)
                unrest += lose;
            else
                quake += lose;
        }
    }
    s.unrest_left = (uint8_t)unrest;
    s.quake_left = (uint8_t)quake;
    s.after_discard = (uint8_t)after;
    return settle_discards(s, p);
}

static void after_auction(State& s) {  // R4.6
    for (int i = 0; i < s.n; ++i)
        if (s.suns[i]) {
            begin_turn(s, (s.ra_player + 1) % s.n);
            return;
        }
    end_epoch(s);
}

static void resolve_auction(State& s) {
    int w = s.high_bidder;
    s.must_bid = 0;
    if (w >= 0) {  // R4.4
        int sun = s.high;
        uint8_t* d = s.displays[w];
        uint8_t disasters[AUCTION_TRACK_SIZE];
        int nd = 0;
        for (int i = 0; i < s.track_len; ++i) {
            int t = s.track[i];
            if (t >= T_FIRST_DISASTER)
                disasters[nd++] = (uint8_t)t;
            else
                d[t]++;
        }
        s.track_len = 0;
        s.suns[w] &= ~(1u << sun);
        s.used[w] |= 1u << s.center;
        s.center = (uint8_t)sun;
        if (nd && resolve_disasters(s, w, disasters, nd, AFTER_AUCTION)) return;
    } else if (s.auction_kind == FORCED) {  // R4.5
        for (int i = 0; i < s.track_len; ++i) s.box[s.track[i]]++;
        s.track_len = 0;
    }
    after_auction(s);
}

static bool resolve_taken(State& s, int p) {
    // R3.5 / R5.3, "2008 disaster timing" (ra.engine.Game._resolve_taken): the Disasters taken
    // this turn, each kind stacked and the kinds in the order of their first take; true if a
    // discard choice now awaits p.
    while (s.pending_len) {
        uint8_t t = s.pending[0];
        uint8_t same[AUCTION_TRACK_SIZE];
        int ns = 0, k = 0;
        for (int i = 0; i < s.pending_len; ++i) {
            if (s.pending[i] == t)
                same[ns++] = t;
            else
                s.pending[k++] = s.pending[i];
        }
        for (int i = k; i < s.pending_len; ++i) s.pending[i] = 0;
        s.pending_len = (uint8_t)k;
        if (resolve_disasters(s, p, same, ns, AFTER_GOD_TURN)) return true;
    }
    return false;
}

static void end_god_turn(State& s, int p) {  // the player stopped using God tiles
    if (s.pending_len && resolve_taken(s, p)) return;
    begin_turn(s, (p + 1) % s.n);
}

static void after_god(State& s, int p) {
    if (can_use_god(s, p)) {
        s.phase = PHASE_GOD;
        s.to_move = (int8_t)p;
        return;
    }
    end_god_turn(s, p);
}

static void god_take(State& s, int p, int t) {  // R3.5
    uint8_t* d = s.displays[p];
    d[T_GOD]--;
    s.box[T_GOD]++;
    int i = 0;
    while (s.track[i] != t) ++i;
    for (; i + 1 < s.track_len; ++i) s.track[i] = s.track[i + 1];
    s.track_len--;
    if (t >= T_FIRST_DISASTER) {
        if (s.late_disasters) {
            s.pending[s.pending_len++] = (uint8_t)t;  // R3.5, 2008: resolved when the turn's takes end
        } else {
            uint8_t one[1] = {(uint8_t)t};
            if (resolve_disasters(s, p, one, 1, AFTER_GOD)) return;
        }
    } else {
        d[t]++;
    }
    after_god(s, p);
}

static void end_epoch(State& s) {
    int n = s.n;
    // R6.2
    s.box[T_RA] += s.ra;
    for (int i = 0; i < s.track_len; ++i) s.box[s.track[i]]++;
    s.track_len = 0;
    s.ra = 0;
    // R6.3 / R7
    bool final = s.epoch == EPOCHS;
    int pharaohs[MAX_PLAYERS], totals[MAX_PLAYERS];
    for (int i = 0; i < n; ++i) {
        pharaohs[i] = s.displays[i][T_PHARAOH];
        totals[i] = final ? sun_total(s.suns[i] | s.used[i]) : 0;
    }
    for (int i = 0; i < n; ++i) {
        const uint8_t* d = s.displays[i];
        Breakdown& b = s.breakdowns[s.epoch - 1][i];
        b.points[0] = (int16_t)(2 * d[T_GOD]);
        b.points[1] = (int16_t)(3 * d[T_GOLD]);
        b.points[2] = (int16_t)majority(pharaohs, n, i, 5, -2);
        b.points[3] = (int16_t)(d[T_FLOOD] ? d[T_FLOOD] + d[T_NILE] : 0);
        b.points[4] = (int16_t)civilization_points(d);
        b.points[5] = (int16_t)(final ? monument_points(d) : 0);
        b.points[6] = (int16_t)(final ? majority(totals, n, i, 5, -5) : 0);
        int total = 0;
        for (int c = 0; c < 7; ++c) total += b.points[c];
        b.before = s.scores[i];
        s.scores[i] = (int16_t)std::max(0, s.scores[i] + total);  // R7.1
        b.after = s.scores[i];
    }
    s.num_epochs_scored = s.epoch;
    static const int DISCARDED[] = {T_GOD, T_GOLD, T_FLOOD, 6, 7, 8, 9, 10};
    for (int i = 0; i < n; ++i)
        for (int t : DISCARDED) {
            s.box[t] += s.displays[i][t];
            s.displays[i][t] = 0;
        }
    // R6.4
    for (int i = 0; i < n; ++i) {
        s.suns[i] |= s.used[i];
        s.used[i] = 0;
    }
    if (final) {
        s.phase = PHASE_OVER;
        s.to_move = -1;
        return;
    }
    s.epoch++;
    begin_epoch(s);
}

int winner(const State& s) {
    // R8.1: highest score, then highest sun (the first such seat, like Python's max).
    if (s.phase != PHASE_OVER) return -1;
    int best = 0;
    for (int i = 1; i < s.n; ++i) {
        if (s.scores[i] > s.scores[best] ||
            (s.scores[i] == s.scores[best] &&
             bit_length(s.suns[i] | s.used[i]) > bit_length(s.suns[best] | s.used[best])))
            best = i;
    }
    return best;
}

// --- legality (ra.state.State.legal_actions) --------------------------------------------------

static inline uint64_t god_takes(const State& s) {
    uint64_t m = 0;
    for (int i = 0; i < s.track_len; ++i)
        if (s.track[i] != T_GOD) m |= 1ULL << god_action(s.track[i]);
    return m;
}

uint64_t legal_mask(const State& s) {
    int p = s.to_move;
    switch (s.phase) {
        case PHASE_BID: {
            // R4.2: face-up suns strictly higher than the bid; bid s is action 24 + s.
            uint32_t m = s.suns[p] & ~((2u << s.high) - 1);
            uint64_t out = (uint64_t)m << 24;
            if (!s.must_bid) out |= 1ULL << A_PASS;
            return out;
        }
        case PHASE_ACTION:
        case PHASE_ACTION_NO_DRAW: {
            uint64_t out = s.phase == PHASE_ACTION ? (1ULL << A_DRAW) | (1ULL << A_INVOKE) : 1ULL << A_INVOKE;
            if (s.displays[p][T_GOD]) out |= god_takes(s);
            return out;
        }
        case PHASE_GOD:
            return god_takes(s) | (1ULL << A_DONE);
        case PHASE_DISCARD: {
            int lo = s.unrest_left ? T_FIRST_CIV : T_FIRST_MONUMENT;
            int hi = s.unrest_left ? T_LAST_CIV : T_LAST_MONUMENT;
            uint64_t out = 0;
            for (int k = lo; k <= hi; ++k)
                if (s.displays[p][k]) out |= 1ULL << discard_action(k);
            return out;
        }
        default:
            return 0;
    }
}

bool apply(State& s, int a) {
    if (a < 0 || a >= NUM_ACTIONS || !((legal_mask(s) >> a) & 1)) return false;
    apply_legal(s, a);
    return true;
}

void apply_legal(State& s, int a) {
    int p = s.to_move;
    s.num_decisions++;
    if (is_bid(a)) {
        s.high = (uint8_t)action_arg(a);
        s.high_bidder = (int8_t)p;
        if (p == s.ra_player)
            resolve_auction(s);
        else
            next_bidder(s, p);
    } else if (a == A_PASS) {
        if (p == s.ra_player)
            resolve_auction(s);
        else
            next_bidder(s, p);
    } else if (a == A_DRAW) {
        draw(s, p);
    } else if (a == A_INVOKE) {
        invoke(s, p);
    } else if (is_god(a)) {
        god_take(s, p, action_arg(a));
    } else if (a == A_DONE) {
        end_god_turn(s, p);
    } else {
        int t = action_arg(a);
        s.displays[p][t]--;
        s.box[t]++;
        if (s.unrest_left)
            s.unrest_left--;
        else
            s.quake_left--;
        if (!settle_discards(s, p)) {
            if (s.after_discard == AFTER_GOD)
                after_god(s, p);
            else if (s.after_discard == AFTER_GOD_TURN)
                end_god_turn(s, p);
            else
                after_auction(s);
        }
    }
}

bool stack_draw(State& s, int tile) {
    if (tile < 0 || tile >= NUM_KINDS || !s.unseen[tile]) return false;
    for (int k = s.drawn; k < s.bag_size; ++k)
        if (s.bag[k] == tile) {
            std::swap(s.bag[k], s.bag[s.drawn]);
            return true;
        }
    return false;
}

void shuffle_rest(State& s, Rng& rng) {
    for (int k = s.bag_size - 1; k > s.drawn; --k) {
        int j = s.drawn + (int)rng.below((uint32_t)(k - s.drawn + 1));
        std::swap(s.bag[k], s.bag[j]);
    }
}

void redeal_rest(State& s, Rng& rng) {
    int k = s.drawn;
    for (int t = 0; t < NUM_KINDS; ++t)
        for (int c = 0; c < s.unseen[t]; ++c) s.bag[k++] = (uint8_t)t;
    shuffle_rest(s, rng);
}

// --- setup (ra.setup) -------------------------------------------------------------------------

bool setup_state(State& s, int n, const uint32_t sun_masks[], const uint8_t* bag_order, int bag_size,
                 const uint8_t contents[NUM_KINDS]) {
    if (n < MIN_PLAYERS || n > MAX_PLAYERS || bag_size < 0 || bag_size > BAG_SIZE) return false;
    std::memset(&s, 0, sizeof s);
    s.n = (uint8_t)n;
    s.ra_end = RA_TRACK_LENGTH[n];
    for (int i = 0; i < n; ++i) {
        s.suns[i] = sun_masks[i];
        s.scores[i] = STARTING_SCORE;
    }
    s.center = CENTER_SUN;
    s.bag_size = (uint8_t)bag_size;
    std::memcpy(s.bag, bag_order, (size_t)bag_size);
    std::memcpy(s.unseen, contents, NUM_KINDS);
    s.epoch = 1;
    s.phase = PHASE_ACTION;
    s.ra_player = -1;
    s.high_bidder = -1;
    begin_epoch(s);
    return true;
}

bool new_game(State& s, int n, uint64_t seed, int long_suns, bool late_disasters) {
    if (!new_game(s, n, seed, long_suns)) return false;
    s.late_disasters = late_disasters ? 1 : 0;  // changes nothing before the first God-tile take
    return true;
}

bool new_game(State& s, int n, uint64_t seed, int long_suns) {
    if (n < MIN_PLAYERS || n > MAX_PLAYERS) return false;
    if (long_suns && (n != 2 || long_suns < 4 || long_suns > 7)) return false;
    // The sun deal of ra.setup.make_setup: permutation number mix64(seed) % n! of
    // itertools.permutations(range(n)) (lexicographic order).
    int fact = 1;
    for (int i = 2; i <= n; ++i) fact *= i;
    uint64_t k = mix64(seed) % (uint64_t)fact;
    int pool[MAX_PLAYERS], order[MAX_PLAYERS], left = n;
    for (int i = 0; i < n; ++i) pool[i] = i;
    for (int i = 0; i < n; ++i) {
        int f = 1;
        for (int j = 2; j < left; ++j) f *= j;
        int idx = (int)(k / (uint64_t)f);
        k %= (uint64_t)f;
        order[i] = pool[idx];
        for (int j = idx; j + 1 < left; ++j) pool[j] = pool[j + 1];
        --left;
    }
    uint32_t masks[MAX_PLAYERS];
    for (int i = 0; i < n; ++i) {
        const uint8_t* g = long_suns ? LONG_2P_GROUPS[long_suns][order[i]] : SUN_GROUPS[n][order[i]];
        uint32_t m = 0;
        for (int j = 0; j < 8 && g[j]; ++j) m |= 1u << g[j];
        masks[i] = m;
    }
    uint8_t bag[BAG_SIZE];
    int b = 0;
    for (int t = 0; t < NUM_KINDS; ++t)
        for (int c = 0; c < TILE_COUNTS[t]; ++c) bag[b++] = (uint8_t)t;
    Rng rng(seed);
    for (int i = BAG_SIZE - 1; i > 0; --i) std::swap(bag[i], bag[rng.below((uint32_t)(i + 1))]);
    return setup_state(s, n, masks, bag, BAG_SIZE, TILE_COUNTS);
}

}  // namespace ra
