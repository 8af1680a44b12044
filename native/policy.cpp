// The policy net's forward pass (ra.bots.policy): bit for bit the numpy pass of ra.train.net and
// the pure-Python pass of ra.bots.policy (tests/train/test_policy_inference.py compares them).
#include "policy.hpp"

#include <cmath>

#include "vector.hpp"

namespace ra {

const char* policy_from_flat(const double* flat, size_t count, PolicyNet& net) {
    const char* why = mlp_from_flat(flat, count, net);
    if (*why) return why;
    if (net.sizes[net.layers] != NUM_ACTIONS) return "the net's outputs must be the 54 actions";
    return "";
}

const char* value_from_flat(const double* flat, size_t count, PolicyNet& net) {
    const char* why = mlp_from_flat(flat, count, net);
    if (*why) return why;
    if (net.sizes[net.layers] != 1) return "a value net has one output";
    return "";
}

const char* mlp_from_flat(const double* flat, size_t count, PolicyNet& net) {
    if (count < 3) return "a policy net needs its layer count and sizes";
    double layers = flat[0];
    if (!(layers >= 1 && layers <= POLICY_MAX_LAYERS) || layers != (int)layers) return "1 to 8 layers";
    net.layers = (int)layers;
    if (count < (size_t)net.layers + 2) return "the sizes are cut short";
    size_t need = 0;
    for (int l = 0; l <= net.layers; ++l) {
        double w = flat[1 + l];
        if (!(w >= 1 && w <= POLICY_MAX_WIDTH) || w != (int)w) return "a layer's width must be 1 to 1024";
        net.sizes[l] = (int)w;
        if (l > 0) need += (size_t)(net.sizes[l - 1] + 1) * (size_t)net.sizes[l];
    }
    if (net.sizes[0] != OBSERVATION_SIZE) return "the net's inputs must be ra.encode's 370 numbers";
    size_t head = (size_t)net.layers + 2;
    if (count != head + need) return "the parameters do not match the sizes";
    net.params.assign(flat + head, flat + count);
    return "";
}

void policy_logits(const PolicyNet& net, const float* obs, double* out) {
    double a[POLICY_MAX_WIDTH], b[POLICY_MAX_WIDTH];
    double* x = a;
    double* y = b;
    for (int i = 0; i < net.sizes[0]; ++i) x[i] = (double)obs[i];
    const double* p = net.params.data();
    for (int l = 0; l < net.layers; ++l) {
        const int in = net.sizes[l], width = net.sizes[l + 1];
        const double* w = p;
        const double* bias = p + (size_t)in * width;
        for (int j = 0; j < width; ++j) y[j] = bias[j];
        for (int i = 0; i < in; ++i) {
            const double xi = x[i];
            if (xi == 0.0) continue;
            const double* row = w + (size_t)i * width;
            for (int j = 0; j < width; ++j) y[j] = y[j] + row[j] * xi;
        }
        if (l + 1 < net.layers)
            for (int j = 0; j < width; ++j) y[j] = y[j] > 0.0 ? y[j] : 0.0;  // ReLU
        p = bias + width;
        double* t = x;
        x = y;
        y = t;
    }
    for (int j = 0; j < net.sizes[net.layers]; ++j) out[j] = x[j];
}

double value_chance(const PolicyNet& net, const State& s, int seat, bool hidden) {
    float obs[OBSERVATION_SIZE];
    encode(s, seat, hidden, obs);
    double z;
    policy_logits(net, obs, &z);
    return 1.0 / (1.0 + std::exp(-z));
}

void leaf_chances(const PolicyNet& net, const State& s, bool hidden, double out[MAX_PLAYERS]) {
    double total = 0.0;
    for (int i = 0; i < s.n; ++i) total += out[i] = value_chance(net, s, i, hidden);
    for (int i = 0; i < s.n; ++i) out[i] /= total;
}

void policy_prior(const PolicyNet& net, const State& s, bool hidden, double prior[NUM_ACTIONS]) {
    float obs[OBSERVATION_SIZE];
    encode(s, s.to_move, hidden, obs);
    double logits[NUM_ACTIONS];
    policy_logits(net, obs, logits);
    uint64_t legal = legal_mask(s);
    double top = -1e300;
    for (int a = 0; a < NUM_ACTIONS; ++a)
        if (legal >> a & 1u) top = std::max(top, logits[a]);
    double total = 0.0;
    for (int a = 0; a < NUM_ACTIONS; ++a)
        if (legal >> a & 1u) total += prior[a] = std::exp(logits[a] - top);
    for (int a = 0; a < NUM_ACTIONS; ++a)
        if (legal >> a & 1u) prior[a] /= total;
}

}  // namespace ra
