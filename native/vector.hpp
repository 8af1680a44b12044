// A batch of games stepped together: see vector.cpp and src/ra/envs/vector.py.
#pragma once

#include <vector>

#include "state.hpp"

namespace ra {

constexpr int OBSERVATION_SIZE = 370;  // ra.encode.OBSERVATION_SIZE
constexpr int OPP_NONE = 0, OPP_RANDOM = 1, OPP_GREEDY = 2;

// ra.encode._encode: `me`'s view of `s` as 370 floats (hidden: the game's hidden-scores option).
void encode(const State& s, int me, bool hidden, float* obs);

struct VectorEnv {
    int num_envs = 1, players = 3, long_suns = 0, opponents = OPP_RANDOM;
    bool hidden = false;
    Rng rng;
    Weights weights;
    uint64_t games = 0;
    std::vector<State> states;
    std::vector<int8_t> agent;  // the learner's seat in each game (opponent modes)

    void start(int i);
    void play_opponents(int i);
    int viewer(int i) const;
    void write(int i, float* obs, int8_t* mask, int8_t* to_move) const;
    void reset(float* obs, int8_t* mask, int8_t* to_move);
    // Apply actions[i] in every game; -1, or the index of the first game whose action is illegal
    // (then nothing was applied anywhere).
    int step(const int32_t* actions, float* obs, int8_t* mask, float* reward, uint8_t* done, int8_t* to_move);
};

}  // namespace ra
