// Information-set MCTS: a port of ra.bots.mcts.MCTSBot (plain ISMCTS, max^n, draws as chance
// nodes, greedy rollouts cut at the end of the epoch valued by projected_scores).
//
// Each iteration redeals the undrawn part of the bag from the public unseen counts (R9.1, R9.3:
// never the real order), walks the tree with UCT, expands one node, plays on with the rollout
// policy and backs up one reward per player.  Deterministic for a seed and an iteration budget.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "policy.hpp"
#include "state.hpp"

namespace ra {

namespace {

struct Edge {
    int action;
    int visits;
    double total;
    double prior = 0.0;  // PUCT only
};

struct Child {
    int key;  // action index * 32 + (drawn tile + 1 for a draw, else 0)
    int node;
};

struct Node {
    int visits = 0;
    bool expanded = false;
    std::vector<uint8_t> untried;
    std::vector<Edge> edges;   // in the order first tried (Python's dict order)
    std::vector<Child> children;
};

int child_key(int action, const State& after, int drawn_before) {
    // A draw is a chance event: its children are keyed by the tile that came out.
    if (action == A_DRAW) return action * 32 + 1 + after.bag[drawn_before];
    return action * 32;
}

struct Search {
    const MctsConfig& cfg;
    const Weights& w;
    Rng rng;
    std::vector<Node> nodes;
    int stop_epoch;

    Search(const MctsConfig& c, const Weights& wt, uint64_t seed) : cfg(c), w(wt), rng(seed) {}


    std::vector<RootStat>* root_stats = nullptr;
    int root_mover = 0;

    // The root statistics of ``action``, added the first time it is seen.
    RootStat* stat_of(int action) {
        for (RootStat& s : *root_stats)
            if (s.action == action) return &s;
        root_stats->emplace_back();
        root_stats->back().action = action;
        return &root_stats->back();
    }

    // Who ends an iteration ahead (the winner at the end of the game, R8.1; else the highest
    // projected score, ties shared) and the root mover's margin, for the root's statistics.
    void record_root(const State& g, int action, const double scores[MAX_PLAYERS], bool final) {
        RootStat* st = stat_of(action);
        int n = g.n;
        double best_other = -1e300;
        for (int j = 0; j < n; ++j)
            if (j != root_mover && scores[j] > best_other) best_other = scores[j];
        st->margin += scores[root_mover] - best_other;
        if (final) {
            st->leads[winner(g)] += 1.0;
            return;
        }
        double top = -1e300;
        int tied = 0;
        for (int j = 0; j < n; ++j) top = std::max(top, scores[j]);
        for (int j = 0; j < n; ++j) tied += scores[j] == top;
        for (int j = 0; j < n; ++j)
            if (scores[j] == top) st->leads[j] += 1.0 / tied;
    }

    // A leaf judged by the value net alone: the root's statistics count each seat ahead by its
    // chance (no score margin is known there).
    void record_chances(int action, const double chances[MAX_PLAYERS], int n) {
        RootStat* st = stat_of(action);
        for (int j = 0; j < n; ++j) st->leads[j] += chances[j];
    }

    void rewards(const State& g, double out[MAX_PLAYERS], int root_action) {
        bool final = is_over(g);
        double scores[MAX_PLAYERS];
        int n = g.n;
        if (final)
            for (int i = 0; i < n; ++i) scores[i] = (double)g.scores[i];
        else
            projected_scores(g, w, scores, cfg.model);
        int win = final ? winner(g) : -1;
        if (root_stats && root_action >= 0) record_root(g, root_action, scores, final);
        for (int i = 0; i < n; ++i) {
            double best_other = -1e300;
            for (int j = 0; j < n; ++j)
                if (j != i && scores[j] > best_other) best_other = scores[j];
            double margin = (scores[i] - best_other) / cfg.margin_scale;
            double r = 0.5 + 0.5 * std::max(-1.0, std::min(1.0, margin));
            if (final) r = (1.0 - cfg.win_weight) * r + cfg.win_weight * (i == win ? 1.0 : 0.0);
            out[i] = r;
        }
    }

    int select(const Node& node) const {
        double c = cfg.exploration;
        double log_n = std::log((double)node.visits);
        int best = -1;
        double best_score = -1e9;
        for (const Edge& e : node.edges) {
            double score = e.total / e.visits + c * std::sqrt(log_n / e.visits);
            if (score > best_score) best = e.action, best_score = score;
        }
        return best;
    }

    // PUCT: every legal action becomes an edge at once, in ascending order, with the net's prior.
    void expand_with_prior(Node& nd, const State& g) const {
        nd.expanded = true;
        double prior[NUM_ACTIONS];
        policy_prior(*cfg.prior, g, cfg.hidden, prior);
        uint64_t legal = legal_mask(g);
        while (legal) {
            int a = __builtin_ctzll(legal);
            nd.edges.push_back({a, 0, 0.0, prior[a]});
            legal &= legal - 1;
        }
    }

    // PUCT (AlphaZero's rule): mean reward plus c * prior * sqrt(parent visits) / (1 + visits);
    // an action not yet tried counts the node's mean reward (its first-play value).
    int select_puct(const Node& node) const {
        double sum = 0.0;
        for (const Edge& e : node.edges) sum += e.total;
        double first = node.visits > 0 ? sum / node.visits : 0.5;
        double root_n = std::sqrt((double)std::max(node.visits, 1));
        int best = -1;
        double best_score = -1e300;
        for (const Edge& e : node.edges) {
            double q = e.visits > 0 ? e.total / e.visits : first;
            double score = q + cfg.c_puct * e.prior * root_n / (1 + e.visits);
            if (score > best_score) best = e.action, best_score = score;
        }
        return best;
    }

    // The leaf's reward per seat: the rollout's, mixed with the value net's chances when one is
    // given and the leaf is not the game's end (PuctSearch.judge_leaf in Python).
    void judge_leaf(State& g, double r[MAX_PLAYERS], int root_action) {
        double chances[MAX_PLAYERS];
        const bool net = cfg.value && cfg.value_weight > 0.0 && !is_over(g);
        if (net) leaf_chances(*cfg.value, g, cfg.hidden, chances);
        if (net && cfg.value_weight >= 1.0) {
            for (int i = 0; i < g.n; ++i) r[i] = chances[i];
            if (root_stats && root_action >= 0) record_chances(root_action, chances, g.n);
            return;
        }
        while (!is_over(g) && g.epoch <= stop_epoch) {
            int a = cfg.greedy_rollout ? epsilon_greedy_action(g, w, cfg.epsilon, rng)
                                       : random_bit(legal_mask(g), rng);
            apply_legal(g, a);
        }
        rewards(g, r, root_action);
        if (net)
            for (int i = 0; i < g.n; ++i) r[i] = (1.0 - cfg.value_weight) * r[i] + cfg.value_weight * chances[i];
    }

    struct Step {
        int node, action, mover;
    };

    void iterate(State& g, std::vector<Step>& path) {
        path.clear();
        int node = 0;
        while (!is_over(g) && g.epoch <= stop_epoch) {
            int mover = g.to_move;
            if (!nodes[node].expanded && cfg.prior) {
                expand_with_prior(nodes[node], g);
            } else if (!nodes[node].expanded) {
                Node& nd = nodes[node];
                nd.expanded = true;
                uint64_t legal = legal_mask(g);
                while (legal) {
                    nd.untried.push_back((uint8_t)__builtin_ctzll(legal));
                    legal &= legal - 1;
                }
                for (int i = (int)nd.untried.size() - 1; i > 0; --i)
                    std::swap(nd.untried[i], nd.untried[rng.below((uint32_t)(i + 1))]);
            }
            int action;
            if (cfg.prior) {
                action = select_puct(nodes[node]);
            } else if (!nodes[node].untried.empty()) {
                action = nodes[node].untried.back();
                nodes[node].untried.pop_back();
            } else {
                action = select(nodes[node]);
            }
            int drawn_before = g.drawn;
            apply_legal(g, action);
            path.push_back({node, action, mover});
            int key = child_key(action, g, drawn_before);
            int found = -1;
            for (const Child& ch : nodes[node].children)
                if (ch.key == key) {
                    found = ch.node;
                    break;
                }
            if (found < 0) {
                int fresh = (int)nodes.size();
                nodes[node].children.push_back({key, fresh});
                nodes.emplace_back();
                break;
            }
            node = found;
        }
        double r[MAX_PLAYERS];
        judge_leaf(g, r, path.empty() ? -1 : path[0].action);
        for (const Step& st : path) {
            Node& nd = nodes[st.node];
            bool seen = false;
            for (Edge& e : nd.edges)
                if (e.action == st.action) {
                    e.visits++;
                    e.total += r[st.mover];
                    seen = true;
                    break;
                }
            if (!seen) nd.edges.push_back({st.action, 1, r[st.mover]});
            nd.visits++;
        }
    }
};

// PUCT's choice: the most visited action (the better mean among equals, then the lower index).
int most_visited(const std::vector<Edge>& edges) {
    const Edge* best = nullptr;
    for (const Edge& e : edges) {
        if (!best || e.visits > best->visits ||
            (e.visits == best->visits && e.visits > 0 && e.total / e.visits > best->total / best->visits))
            best = &e;
    }
    return best ? best->action : -1;
}

}  // namespace

int mcts_choose(const State& root, const MctsConfig& cfg, const Weights& w, uint64_t seed,
                int64_t* iterations_done) {
    return mcts_search(root, cfg, w, seed, iterations_done, nullptr);
}

int mcts_search(const State& root, const MctsConfig& cfg, const Weights& w, uint64_t seed,
                int64_t* iterations_done, std::vector<RootStat>* stats) {
    uint64_t legal = legal_mask(root);
    if (iterations_done) *iterations_done = 0;
    if (stats) stats->clear();
    if (!legal) return -1;
    // One legal action needs no search, unless its numbers are wanted (the advisor's chances).
    if (!(legal & (legal - 1)) && !stats) return __builtin_ctzll(legal);
    Search search(cfg, w, seed);
    search.root_stats = stats;
    search.root_mover = root.to_move;
    search.nodes.reserve(1024);
    search.nodes.emplace_back();
    search.stop_epoch = root.epoch + cfg.horizon - 1;
    std::vector<Search::Step> path;
    using clock = std::chrono::steady_clock;
    auto deadline = clock::now() + std::chrono::duration_cast<clock::duration>(
                                       std::chrono::duration<double>(cfg.seconds > 0 ? cfg.seconds : 0.0));
    int64_t budget = cfg.seconds > 0 ? INT64_MAX : cfg.iterations;
    int64_t done = 0;
    State g;
    while (done < budget) {
        g = root;
        redeal_rest(g, search.rng);  // a determinization: the unseen tiles in a fresh order
        search.iterate(g, path);
        ++done;
        if (cfg.seconds > 0 && (done & 7) == 0 && clock::now() >= deadline) break;
        if (cfg.poll && (done & 255) == 0 && !cfg.poll(cfg.poll_arg)) {
            if (iterations_done) *iterations_done = done;
            return -1;
        }
    }
    if (iterations_done) *iterations_done = done;
    const Node& r = search.nodes[0];
    int best = cfg.prior ? most_visited(r.edges) : -1;
    double best_mean = -1e300;
    for (const Edge& e : r.edges) {
        if (cfg.prior) break;
        double mean = e.total / e.visits;
        if (mean > best_mean) best = e.action, best_mean = mean;
    }
    if (stats)
        for (RootStat& st : *stats)
            for (const Edge& e : r.edges)
                if (e.action == st.action) st.visits = e.visits, st.reward = e.total;
    return best;
}

}  // namespace ra
