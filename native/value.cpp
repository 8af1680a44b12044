// The learned evaluation (ra.bots.value_model): a linear model of what each player still
// scores (the heuristic's projection among its features, so it learns a correction to it), read at the start of epoch 2 or 3, where the search cuts its rollouts (R6.3: the
// displays then hold only what stays: Pharaohs, Niles, Monuments; every sun is face up).
//
// value_features is ra.bots.value_model.features, feature for feature (tests/native compares
// them); the coefficients come from src/ra/data/value_model.json (tools/value_model.py fits them).
#include <algorithm>

#include "state.hpp"

namespace ra {

bool at_epoch_start(const State& s) {
    return s.epoch >= 2 && s.phase == PHASE_ACTION && s.ra == 0 && s.track_len == 0;
}

void value_features(const State& s, int seat, double heuristic_gain, double f[VALUE_FEATURES]) {
    int n = s.n;
    int pharaohs[MAX_PLAYERS], totals[MAX_PLAYERS], highest[MAX_PLAYERS];
    double mean_ph = 0, mean_total = 0, mean_high = 0;
    for (int i = 0; i < n; ++i) {
        uint32_t m = s.suns[i] | s.used[i];
        pharaohs[i] = s.displays[i][T_PHARAOH];
        totals[i] = sun_total(m);
        highest[i] = bit_length(m) - 1;
        mean_ph += pharaohs[i];
        mean_total += totals[i];
        mean_high += highest[i];
    }
    mean_ph /= n, mean_total /= n, mean_high /= n;
    const uint8_t* d = s.displays[seat];
    int kinds = 0, pairs = 0, sets = 0;
    for (int t = T_FIRST_MONUMENT; t <= T_LAST_MONUMENT; ++t) {
        kinds += d[t] > 0;
        pairs += d[t] == 2;
        sets += d[t] >= 3;
    }
    f[0] = 1.0;
    f[1] = majority(pharaohs, n, seat, 1, 0);
    f[2] = majority(pharaohs, n, seat, 0, 1);
    f[3] = pharaohs[seat] - mean_ph;
    f[4] = d[T_NILE];
    f[5] = monument_points(d);
    f[6] = kinds;
    f[7] = pairs;
    f[8] = sets;
    f[9] = totals[seat] - mean_total;
    f[10] = highest[seat] - mean_high;
    f[11] = majority(totals, n, seat, 1, 0);
    f[12] = majority(totals, n, seat, 0, 1);
    f[13] = heuristic_gain;
}

bool learned_scores(const State& s, const ValueModel& model, const double heuristic[MAX_PLAYERS],
                    double out[MAX_PLAYERS]) {
    if (!at_epoch_start(s)) return false;
    const double* c = model.coef[s.n - MIN_PLAYERS][s.epoch - 2];
    double f[VALUE_FEATURES];
    for (int i = 0; i < s.n; ++i) {
        value_features(s, i, heuristic[i] - (double)s.scores[i], f);
        double v = 0;
        for (int k = 0; k < VALUE_FEATURES; ++k) v += c[k] * f[k];
        out[i] = (double)s.scores[i] + v;
    }
    return true;
}

}  // namespace ra
