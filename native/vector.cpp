// A batch of games stepped together (ra.envs.vector): the observation encoding of ra.encode and
// the legal-action masks written straight into the caller's arrays, opponents played natively.
#include "vector.hpp"

#include <cstring>

namespace ra {

namespace {
// ra.encode's layout (see its docstring): offsets of the global fields and the player slots.
constexpr int O_PLAYERS = 0, O_EPOCH = 1, O_PHASE = 2, O_TO_MOVE = 7, O_RA_COUNT = 12;
constexpr int O_TRACK = 16, O_UNSEEN = O_TRACK + NUM_KINDS, O_AUCTION = O_UNSEEN + NUM_KINDS;
constexpr int O_RA_PLAYER = O_AUCTION + 3, O_HIGH_BID = O_RA_PLAYER + MAX_PLAYERS;
constexpr int O_HIGH_BIDDER = O_HIGH_BID + 1, O_MUST_BID = O_HIGH_BIDDER + MAX_PLAYERS;
constexpr int O_DISASTER = O_MUST_BID + 1, O_SLOT0 = O_DISASTER + 3;
constexpr int SLOT_SIZE = 1 + 2 * MAX_SUN + NUM_KINDS + 2;
static_assert(O_SLOT0 + MAX_PLAYERS * SLOT_SIZE == OBSERVATION_SIZE, "ra.encode's 370 numbers");
// The engine's phase code -> position in the one-hot phase field (action, bid, god, discard, over).
constexpr int PHASE_INDEX[6] = {0, 1, 2, 3, 4, 0};
}  // namespace

void encode(const State& s, int me, bool hidden, float* obs) {
    std::memset(obs, 0, sizeof(float) * OBSERVATION_SIZE);
    const int n = s.n;
    obs[O_PLAYERS] = (float)n;
    obs[O_EPOCH] = (float)s.epoch;
    obs[O_PHASE + PHASE_INDEX[s.phase]] = 1.0f;
    if (s.phase != PHASE_OVER) obs[O_TO_MOVE + ((s.to_move - me) % n + n) % n] = 1.0f;
    obs[O_RA_COUNT] = (float)s.ra;
    obs[O_RA_COUNT + 1] = (float)s.ra_end;
    obs[O_RA_COUNT + 2] = (float)s.center;
    obs[O_RA_COUNT + 3] = (float)(s.bag_size - s.drawn);
    for (int i = 0; i < s.track_len; ++i) obs[O_TRACK + s.track[i]] += 1.0f;
    for (int t = 0; t < NUM_KINDS; ++t) obs[O_UNSEEN + t] = (float)s.unseen[t];
    if (s.phase == PHASE_BID) {
        obs[O_AUCTION + s.auction_kind] = 1.0f;
        obs[O_RA_PLAYER + ((s.ra_player - me) % n + n) % n] = 1.0f;
        if (s.high_bidder >= 0) {
            obs[O_HIGH_BID] = (float)s.high;
            obs[O_HIGH_BIDDER + ((s.high_bidder - me) % n + n) % n] = 1.0f;
        }
        obs[O_MUST_BID] = s.must_bid ? 1.0f : 0.0f;
    } else if (s.phase == PHASE_DISCARD) {
        obs[O_DISASTER + (s.unrest_left ? 0 : 1)] = 1.0f;
        obs[O_DISASTER + 2] = (float)(s.unrest_left ? s.unrest_left : s.quake_left);
    }
    const bool hide = hidden && s.phase != PHASE_OVER;
    for (int slot = 0; slot < n; ++slot) {
        const int seat = (me + slot) % n;
        float* at = obs + O_SLOT0 + slot * SLOT_SIZE;
        at[0] = 1.0f;
        for (int sun = 1; sun <= MAX_SUN; ++sun) {
            if (s.suns[seat] >> sun & 1u) at[sun] = 1.0f;
            if (s.used[seat] >> sun & 1u) at[MAX_SUN + sun] = 1.0f;
        }
        at += 1 + 2 * MAX_SUN;
        for (int t = 0; t < NUM_KINDS; ++t) at[t] = (float)s.displays[seat][t];
        if (!hide || seat == me) {
            at[NUM_KINDS] = (float)s.scores[seat];
            at[NUM_KINDS + 1] = 1.0f;
        }
    }
}

void VectorEnv::start(int i) {
    uint64_t seed = rng.next();
    new_game(states[i], players, seed, long_suns);
    agent[i] = (int8_t)(games % (uint64_t)players);  // the learner's seat takes turns (fair seats)
    ++games;
}

void VectorEnv::play_opponents(int i) {
    State& s = states[i];
    if (opponents == OPP_NONE) return;
    while (!is_over(s) && s.to_move != agent[i]) {
        apply_legal(s, opponents == OPP_GREEDY ? greedy_action(s, weights) : random_bit(legal_mask(s), rng));
    }
}

int VectorEnv::viewer(int i) const {
    const State& s = states[i];
    if (opponents != OPP_NONE) return agent[i];
    return s.to_move >= 0 ? s.to_move : 0;
}

void VectorEnv::write(int i, float* obs, int8_t* mask, int8_t* to_move) const {
    const State& s = states[i];
    encode(s, viewer(i), hidden, obs + (size_t)i * OBSERVATION_SIZE);
    uint64_t m = is_over(s) ? 0 : legal_mask(s);
    int8_t* row = mask + (size_t)i * NUM_ACTIONS;
    for (int a = 0; a < NUM_ACTIONS; ++a) row[a] = (int8_t)(m >> a & 1u);
    to_move[i] = is_over(s) ? -1 : s.to_move;
}

void VectorEnv::reset(float* obs, int8_t* mask, int8_t* to_move) {
    for (int i = 0; i < num_envs; ++i) {
        start(i);
        play_opponents(i);
        write(i, obs, mask, to_move);
    }
}

int VectorEnv::step(const int32_t* actions, float* obs, int8_t* mask, float* reward, uint8_t* done,
                    int8_t* to_move) {
    for (int i = 0; i < num_envs; ++i) {  // every action checked first: a refusal changes nothing
        int a = actions[i];
        if (a < 0 || a >= NUM_ACTIONS || !(legal_mask(states[i]) >> a & 1u)) return i;
    }
    for (int i = 0; i < num_envs; ++i) {
        State& s = states[i];
        int actor = s.to_move;
        apply_legal(s, actions[i]);
        play_opponents(i);
        reward[i] = 0.0f;
        done[i] = 0;
        if (is_over(s)) {
            int who = opponents != OPP_NONE ? agent[i] : actor;
            reward[i] = winner(s) == who ? 1.0f : 0.0f;
            done[i] = 1;
            start(i);  // auto-reset: the observation is the new game's first
            play_opponents(i);
        }
        write(i, obs, mask, to_move);
    }
    return -1;
}

}  // namespace ra
