// The greedy bot and its valuation: an exact port of ra.bots.valuation and ra.bots.greedy.
// Every floating-point expression keeps Python's order of operations (the build turns off
// FMA contraction), so the native greedy picks exactly what greedy_action picks (tests/native).
#include <algorithm>

#include "state.hpp"

namespace ra {

static const double SET_POTENTIAL[6] = {0.0, 0.4, 1.6, 1.2, 1.0, 0.0};
static const double KINDS_POTENTIAL[9] = {0.0, 0.2, 0.4, 0.7, 1.2, 2.0, 3.0, 2.5, 0.0};

namespace {

// ra.bots.valuation.Valuation for one position.
struct Valuation {
    const State& s;
    const Weights& w;
    int n, epoch, future;
    double progress, remaining, pharaoh_weight, monument_weight, god_worth;
    int rivals_most[MAX_PLAYERS], rivals_fewest[MAX_PLAYERS];
    double base_cache[MAX_PLAYERS];
    bool base_known[MAX_PLAYERS];

    Valuation(const State& st, const Weights& wt) : s(st), w(wt) {
        n = s.n;
        epoch = s.epoch;
        future = 3 - epoch;
        progress = (double)s.ra / (double)s.ra_end;
        remaining = 1.0 - progress;
        for (int i = 0; i < n; ++i) {
            int most = -1, fewest = 1 << 20;
            for (int j = 0; j < n; ++j) {
                if (j == i) continue;
                int v = s.displays[j][T_PHARAOH];
                most = std::max(most, v);
                fewest = std::min(fewest, v);
            }
            rivals_most[i] = most;
            rivals_fewest[i] = fewest;
            base_known[i] = false;
        }
        pharaoh_weight = 1.0 + w.pharaoh_future * (double)future;
        monument_weight = w.monument_potential * ((double)future + remaining) / 3.0;
        god_worth = 2.0 + w.god_option;
    }

    double base(int seat) {
        if (!base_known[seat]) {
            base_cache[seat] = display_value(seat, s.displays[seat]);
            base_known[seat] = true;
        }
        return base_cache[seat];
    }

    double display_value(int seat, const uint8_t* d) const {
        double v = god_worth * (double)d[T_GOD] + 3.0 * (double)d[T_GOLD];
        int mine = d[T_PHARAOH], most = rivals_most[seat], fewest = rivals_fewest[seat];
        if (mine > most || (mine == most && fewest < most))
            v += 5.0 * pharaoh_weight;
        else if (mine < fewest || (mine == fewest && fewest < most))
            v -= 2.0 * pharaoh_weight;
        int floods = d[T_FLOOD], niles = d[T_NILE];
        if (floods)
            v += (double)(floods + niles);
        else
            v += (double)niles * w.flood_chance * remaining;
        v += (double)niles * w.nile_future * (double)future;
        int civ = civilization_points(d);
        v += civ != -5 ? (double)civ : -5.0 * (1.0 - w.civ_chance * remaining);
        int kinds = 0;
        double potential = 0.0;
        for (int t = T_FIRST_MONUMENT; t <= T_LAST_MONUMENT; ++t) {
            int c = d[t];
            if (c) {
                ++kinds;
                potential += SET_POTENTIAL[c];
            }
        }
        v += (double)monument_points(d) + (potential + KINDS_POTENTIAL[kinds]) * monument_weight;
        return v;
    }

    // The kind (among kinds[0..count)) whose loss costs seat least; d is restored.
    int cheapest(int seat, uint8_t* d, const int* kinds, int count) const {
        int best = kinds[0];
        double best_value = -1e9;
        for (int i = 0; i < count; ++i) {
            int k = kinds[i];
            d[k]--;
            double v = display_value(seat, d);
            d[k]++;
            if (v > best_value) best = k, best_value = v;
        }
        return best;
    }

    // The display of seat after taking tiles and resolving their disasters (R5).
    void after_lot(int seat, const uint8_t* tiles, int count, uint8_t* d) const {
        std::memcpy(d, s.displays[seat], NUM_KINDS);
        uint8_t disasters[AUCTION_TRACK_SIZE];
        int nd = 0;
        for (int i = 0; i < count; ++i) {
            int t = tiles[i];
            if (t >= T_FIRST_DISASTER)
                disasters[nd++] = (uint8_t)t;
            else
                d[t]++;
        }
        sort_small(disasters, nd);
        for (int i = 0; i < nd; ++i) {
            int t = disasters[i];
            if (t == T_FUNERAL) {
                d[T_PHARAOH] -= std::min(2, (int)d[T_PHARAOH]);
            } else if (t == T_DROUGHT) {
                int floods = std::min(2, (int)d[T_FLOOD]);
                int niles = std::min(2 - floods, (int)d[T_NILE]);
                d[T_FLOOD] -= floods;
                d[T_NILE] -= niles;
            } else {
                int lo = t == T_UNREST ? T_FIRST_CIV : T_FIRST_MONUMENT;
                int hi = t == T_UNREST ? T_LAST_CIV : T_LAST_MONUMENT;
                for (int r = 0; r < 2; ++r) {
                    int held[8], nh = 0;
                    for (int k = lo; k <= hi; ++k)
                        if (d[k]) held[nh++] = k;
                    if (!nh) break;
                    d[cheapest(seat, d, held, nh)]--;
                }
            }
        }
    }

    double lot_gain(int seat, const uint8_t* tiles, int count) {
        uint8_t d[NUM_KINDS];
        after_lot(seat, tiles, count, d);
        return display_value(seat, d) - base(seat);
    }

    double sun_gain(int seat, int bid) const {
        if (epoch < 3) return w.sun_step * (double)(s.center - bid);
        int totals[MAX_PLAYERS];
        for (int i = 0; i < n; ++i) totals[i] = sun_total(s.suns[i] | s.used[i]);
        int before = majority(totals, n, seat, 5, -5);
        totals[seat] += s.center - bid;
        return (double)(majority(totals, n, seat, 5, -5) - before);
    }

    double sun_cost(int seat) const {
        int k = popcount(s.suns[seat]);
        if (k == 0) return 0.0;
        return w.sun_cost * remaining / (double)k;
    }

    double bid_value(int seat, const uint8_t* tiles, int count, int bid, const double* known_gain) {
        double gain = known_gain ? *known_gain : lot_gain(seat, tiles, count);
        return gain + sun_gain(seat, bid) - sun_cost(seat);
    }
};

inline int lowest_sun(uint32_t mask) { return bit_length(mask & (0u - mask)) - 1; }

}  // namespace

int greedy_action(const State& s, const Weights& w) {
    uint64_t legal = legal_mask(s);
    int seat = s.to_move;
    int phase = s.phase;
    bool action_phase = phase == PHASE_ACTION || phase == PHASE_ACTION_NO_DRAW;
    const uint8_t* track = s.track;
    int tl = s.track_len;
    if (action_phase && !tl) return (legal >> A_DRAW) & 1 ? A_DRAW : A_INVOKE;
    Valuation val(s, w);
    if (phase == PHASE_BID) {
        int best = -1;
        double best_value = -1e9;
        double gain = val.lot_gain(seat, track, tl);
        for (int sun = 1; sun <= MAX_SUN; ++sun) {  // bids in ascending suns, then pass
            int a = bid_action(sun);
            if (!((legal >> a) & 1)) continue;
            double v = val.bid_value(seat, track, tl, sun, &gain);
            if (v > w.min_gain) return a;
            if (v > best_value) best = a, best_value = v;
        }
        if ((legal >> A_PASS) & 1) return A_PASS;
        return best;
    }
    if (phase == PHASE_DISCARD) {
        int kinds[8], nk = 0;
        for (int t = T_FIRST_CIV; t <= T_LAST_MONUMENT; ++t)
            if ((legal >> discard_action(t)) & 1) kinds[nk++] = t;
        uint8_t d[NUM_KINDS];
        std::memcpy(d, s.displays[seat], NUM_KINDS);
        return discard_action(val.cheapest(seat, d, kinds, nk));
    }
    // Turn actions: "action" (draw / ra / god) or "god" (god / done).
    int best_god = -1;
    double best_gain = 0.0;
    for (int t = 2; t < NUM_KINDS; ++t) {
        int a = god_action(t);
        if (!((legal >> a) & 1)) continue;
        uint8_t one[1] = {(uint8_t)t};
        double g = val.lot_gain(seat, one, 1);
        if (best_god < 0 || g > best_gain) best_god = a, best_gain = g;
    }
    if (best_god >= 0 && best_gain - val.god_worth > w.god_margin) return best_god;
    if (phase == PHASE_GOD) return A_DONE;
    if (!((legal >> A_DRAW) & 1)) return A_INVOKE;
    // _worth_invoking
    double mine = val.bid_value(seat, track, tl, lowest_sun(s.suns[seat]), nullptr);
    bool invoke;
    if (s.ra_end - s.ra <= 1) {
        invoke = mine > w.min_gain;  // the next Ra tile would end the epoch and lose the lot (R6.2)
    } else if (mine <= w.min_gain || (tl < 6 && mine < w.invoke_gain)) {
        invoke = false;
    } else {
        double rival = 0.0;
        bool any = false;
        for (int i = 0; i < s.n; ++i) {
            if (i == seat || !s.suns[i]) continue;
            double v = val.bid_value(i, track, tl, lowest_sun(s.suns[i]), nullptr);
            if (!any || v > rival) rival = v, any = true;
        }
        invoke = mine >= (any ? rival : 0.0) * w.invoke_lead;
    }
    return invoke ? A_INVOKE : A_DRAW;
}

void projected_scores(const State& s, const Weights& w, double out[MAX_PLAYERS], const ValueModel* model) {
    // ra.bots.mcts.projected_scores: scores so far plus what each player keeps.
    Valuation val(s, w);
    int n = s.n;
    int totals[MAX_PLAYERS];
    for (int i = 0; i < n; ++i) {
        out[i] = (double)s.scores[i] + val.base(i);
        totals[i] = sun_total(s.suns[i] | s.used[i]);
    }
    if (s.epoch == 3) {
        // The final sun scoring (R7.3) is still to come: half of it is likely to hold.
        for (int i = 0; i < n; ++i) out[i] += 0.5 * (double)majority(totals, n, i, 5, -5);
    } else {
        int sum = 0;
        for (int i = 0; i < n; ++i) sum += totals[i];
        double mean = (double)sum / (double)n;
        for (int i = 0; i < n; ++i) out[i] += w.sun_step * ((double)totals[i] - mean);
    }
    if (model) {  // the learned evaluation corrects the heuristic at the start of epoch 2 or 3
        double heuristic[MAX_PLAYERS];
        std::memcpy(heuristic, out, sizeof heuristic);
        learned_scores(s, *model, heuristic, out);
    }
}

}  // namespace ra
