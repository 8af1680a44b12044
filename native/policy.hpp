// The learned policy (ra.bots.policy, ra.train): a small MLP over ra.encode's observation whose
// logits are the search's PUCT prior.  See native/policy.cpp.
#pragma once

#include <vector>

#include "state.hpp"

namespace ra {

constexpr int POLICY_MAX_LAYERS = 8;
constexpr int POLICY_MAX_WIDTH = 1024;

// An MLP: sizes[0] inputs (ra.encode's 370), ReLU between layers, sizes[layers] outputs (the 54
// action logits).  Layer l's parameters in `params`: W as [in][out] (row i: what input i adds to
// every output), then the bias [out].  The inputs' normalization is folded into the first W.
struct PolicyNet {
    int layers = 0;
    int sizes[POLICY_MAX_LAYERS + 1] = {};
    std::vector<double> params;
};

// The net from its flat form (ra.bots.policy.Policy.flat: layers, sizes..., params...); an
// empty string, or the reason it is refused.
const char* policy_from_flat(const double* flat, size_t count, PolicyNet& net);

// Any such MLP (the policy's or the value net's) from its flat form, whatever its outputs.
const char* mlp_from_flat(const double* flat, size_t count, PolicyNet& net);

// The value net (ra.bots.value_net): the same MLP with one output, the logit of the viewer's
// chance to win.
const char* value_from_flat(const double* flat, size_t count, PolicyNet& net);

// The chance of `seat` to win `s` by the value net from its observation: 1 / (1 + exp(-logit)),
// as ValueNet.chance computes it.
double value_chance(const PolicyNet& net, const State& s, int seat, bool hidden);

// Every seat's chance scaled to sum to 1 (ra.bots.value_net.leaf_chances): a leaf's value.
void leaf_chances(const PolicyNet& net, const State& s, bool hidden, double out[MAX_PLAYERS]);

// The 54 logits of `obs` (float64, the same operations in the same order as the numpy and the
// pure-Python passes: every output starts at its bias and adds input i's row in input order,
// inputs equal to 0 skipped; no fused multiply-add: built with -ffp-contract=off).
void policy_logits(const PolicyNet& net, const float* obs, double* out);

// The prior of each legal action of `s` for its mover (a softmax of the logits over the legal
// ones, in ascending action order): `prior[a]` for every set bit a of legal_mask(s).
void policy_prior(const PolicyNet& net, const State& s, bool hidden, double prior[NUM_ACTIONS]);

}  // namespace ra
