// ra._core: the CPython binding of the native core (raw C API: no build-time dependency and the
// lowest call overhead).  See src/ra/_core.pyi for the Python signatures and native/README.md.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string>

#include "policy.hpp"
#include "state.hpp"
#include "vector.hpp"

namespace {

struct StateObject {
    PyObject_HEAD ra::State st;
};

extern PyTypeObject StateType;

inline StateObject* new_state_object() {
    auto* obj = reinterpret_cast<StateObject*>(StateType.tp_alloc(&StateType, 0));
    return obj;
}

// --- the bridge by value: a packed position (ra.native.pack) ------------------------------------
//
// The Python side writes a position as bytes in a fixed little-endian layout (its version and size
// below, checked when the core is loaded: ra.native.check_core); this reads it in one pass.  The
// core never reads a Python object's fields, so renaming one cannot break it at run time.

constexpr int LAYOUT_VERSION = 2;
constexpr char LAYOUT_MAGIC[4] = {'R', 'A', 'S', 'T'};
constexpr int N5 = ra::MAX_PLAYERS;
constexpr Py_ssize_t LAYOUT_SIZE = 4 + 1              // magic, version
                                   + 17 + 2           // the byte scalars, num_decisions
                                   + 4 * N5 + 4 * N5  // suns, used
                                   + 2 * N5           // scores
                                   + 1 + ra::AUCTION_TRACK_SIZE          // track_len, track
                                   + 2 + ra::AUCTION_TRACK_SIZE  // late_disasters, pending_len, pending
                                   + N5 * ra::NUM_KINDS + 2 * ra::NUM_KINDS  // displays, unseen, box
                                   + 1 + 2 * ra::EPOCHS * N5 * 9        // breakdowns
                                   + ra::BAG_SIZE;

struct Reader {
    const uint8_t* p;
    uint8_t u8() { return *p++; }
    int8_t i8() { return (int8_t)*p++; }
    uint16_t u16() {
        uint16_t v = (uint16_t)(p[0] | (p[1] << 8));
        p += 2;
        return v;
    }
    int16_t i16() { return (int16_t)u16(); }
    uint32_t u32() {
        uint32_t v = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
        p += 4;
        return v;
    }
};

bool read_packed(const uint8_t* data, Py_ssize_t size, ra::State& s) {
    if (size != LAYOUT_SIZE || std::memcmp(data, LAYOUT_MAGIC, 4) != 0 || data[4] != LAYOUT_VERSION) {
        PyErr_Format(PyExc_ValueError, "not a packed Ra position of layout %d (%zd bytes)", LAYOUT_VERSION,
                     LAYOUT_SIZE);
        return false;
    }
    std::memset(&s, 0, sizeof s);
    Reader r{data + 5};
    s.n = r.u8();
    s.ra_end = r.u8();
    s.epoch = r.u8();
    s.phase = r.u8();
    s.to_move = r.i8();
    s.ra_player = r.i8();
    s.auction_kind = r.u8();
    s.high = r.u8();
    s.high_bidder = r.i8();
    s.must_bid = r.u8();
    s.unrest_left = r.u8();
    s.quake_left = r.u8();
    s.after_discard = r.u8();
    s.center = r.u8();
    s.ra = r.u8();
    s.drawn = r.u8();
    s.bag_size = r.u8();
    s.num_decisions = r.u16();
    for (int i = 0; i < N5; ++i) s.suns[i] = r.u32();
    for (int i = 0; i < N5; ++i) s.used[i] = r.u32();
    for (int i = 0; i < N5; ++i) s.scores[i] = r.i16();
    s.track_len = r.u8();
    for (int i = 0; i < ra::AUCTION_TRACK_SIZE; ++i) s.track[i] = r.u8();
    s.late_disasters = r.u8();
    s.pending_len = r.u8();
    for (int i = 0; i < ra::AUCTION_TRACK_SIZE; ++i) s.pending[i] = r.u8();
    for (int i = 0; i < N5; ++i)
        for (int t = 0; t < ra::NUM_KINDS; ++t) s.displays[i][t] = r.u8();
    for (int t = 0; t < ra::NUM_KINDS; ++t) s.unseen[t] = r.u8();
    for (int t = 0; t < ra::NUM_KINDS; ++t) s.box[t] = r.u8();
    s.num_epochs_scored = r.u8();
    for (int e = 0; e < ra::EPOCHS; ++e)
        for (int i = 0; i < N5; ++i) {
            ra::Breakdown& b = s.breakdowns[e][i];
            for (int c = 0; c < 7; ++c) b.points[c] = r.i16();
            b.before = r.i16();
            b.after = r.i16();
        }
    for (int k = 0; k < ra::BAG_SIZE; ++k) s.bag[k] = r.u8();
    bool sane = s.n >= ra::MIN_PLAYERS && s.n <= ra::MAX_PLAYERS && s.track_len <= ra::AUCTION_TRACK_SIZE &&
                s.drawn <= s.bag_size && s.bag_size <= ra::BAG_SIZE && s.num_epochs_scored <= ra::EPOCHS &&
                s.phase <= ra::PHASE_ACTION_NO_DRAW && s.epoch >= 1 && s.epoch <= ra::EPOCHS;
    for (int k = 0; sane && k < s.bag_size; ++k) sane = s.bag[k] < ra::NUM_KINDS;
    for (int i = 0; sane && i < s.track_len; ++i) sane = s.track[i] < ra::NUM_KINDS;
    sane = sane && s.late_disasters <= 1 && s.pending_len <= ra::AUCTION_TRACK_SIZE &&
           s.after_discard <= ra::AFTER_GOD_TURN;
    for (int i = 0; sane && i < s.pending_len; ++i)
        sane = s.pending[i] >= ra::T_FIRST_DISASTER && s.pending[i] < ra::NUM_KINDS;
    if (!sane) PyErr_SetString(PyExc_ValueError, "the packed Ra position is not a valid position");
    return sane;
}

// The layout and the code tables the core was built with, for ra.native.check_core.
PyObject* layout(PyObject*, PyObject*) {
    PyObject* actions = PyTuple_New(ra::NUM_ACTIONS);
    for (int a = 0; actions && a < ra::NUM_ACTIONS; ++a) {
        const char* kind = a == ra::A_DRAW     ? "draw"
                           : a == ra::A_INVOKE ? "ra"
                           : a == ra::A_DONE   ? "done"
                           : a == ra::A_PASS   ? "pass"
                           : ra::is_god(a)     ? "god"
                           : ra::is_bid(a)     ? "bid"
                                               : "discard";
        int arg = a <= ra::A_PASS ? -1 : ra::action_arg(a);
        PyTuple_SET_ITEM(actions, a, Py_BuildValue("(si)", kind, arg));
    }
    PyObject* counts = PyTuple_New(ra::NUM_KINDS);
    for (int t = 0; counts && t < ra::NUM_KINDS; ++t) PyTuple_SET_ITEM(counts, t, PyLong_FromLong(ra::TILE_COUNTS[t]));
    return Py_BuildValue(
        "{s:i,s:n,s:{s:i,s:i,s:i,s:i,s:i,s:i},s:{s:i,s:i,s:i},s:{s:i,s:i,s:i},"
        "s:{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i},s:N,s:N}",
        "version", LAYOUT_VERSION, "size", LAYOUT_SIZE,
        "phases", "action", ra::PHASE_ACTION, "bid", ra::PHASE_BID, "god", ra::PHASE_GOD, "discard",
        ra::PHASE_DISCARD, "over", ra::PHASE_OVER, "action_no_draw", ra::PHASE_ACTION_NO_DRAW,
        "auction_kinds", "drawn", ra::DRAWN, "voluntary", ra::VOLUNTARY, "forced", ra::FORCED,
        "after", "auction", ra::AFTER_AUCTION, "god", ra::AFTER_GOD, "god_turn", ra::AFTER_GOD_TURN,
        "limits", "kinds", ra::NUM_KINDS, "bag", ra::BAG_SIZE, "max_sun", ra::MAX_SUN, "center_sun",
        ra::CENTER_SUN, "min_players", ra::MIN_PLAYERS, "max_players", ra::MAX_PLAYERS, "track",
        ra::AUCTION_TRACK_SIZE, "epochs", ra::EPOCHS, "starting_score", ra::STARTING_SCORE, "ra",
        ra::T_RA, "god", ra::T_GOD, "first_disaster", ra::T_FIRST_DISASTER, "first_civ", ra::T_FIRST_CIV,
        "first_monument", ra::T_FIRST_MONUMENT,
        "actions", actions, "tile_counts", counts);
}

// Asks the position for its packed bytes (game.pack(), the engine's one packed form); the core
// never reads a Python object's fields and imports no Python module.
bool read_game(PyObject* game, ra::State& s) {
    PyObject* packed = PyObject_CallMethod(game, "pack", nullptr);
    if (!packed) return false;
    char* data;
    Py_ssize_t size;
    if (PyBytes_AsStringAndSize(packed, &data, &size) < 0) {
        Py_DECREF(packed);
        return false;
    }
    bool ok = read_packed(reinterpret_cast<const uint8_t*>(data), size, s);
    Py_DECREF(packed);
    return ok;
}

// --- State methods ------------------------------------------------------------------------------

// Every State is a valid position from birth (a 3-player game, seed 0, until __init__ deals).
PyObject* State_new(PyTypeObject* type, PyObject*, PyObject*) {
    PyObject* self = type->tp_alloc(type, 0);
    if (self) ra::new_game(reinterpret_cast<StateObject*>(self)->st, 3, 0, 0);
    return self;
}

int State_init(PyObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"players", "seed", "suns_per_player", "disaster_timing", nullptr};
    int players = 3;
    unsigned long long seed = 0;
    int long_suns = 0;
    const char* timing = "immediate";
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|iKis", const_cast<char**>(kw), &players, &seed,
                                     &long_suns, &timing))
        return -1;
    bool late = std::strcmp(timing, "2008") == 0;
    if (!late && std::strcmp(timing, "immediate") != 0) {
        PyErr_Format(PyExc_ValueError, "unknown disaster_timing '%s'; disaster timings are: immediate, 2008 (R3.5)",
                     timing);
        return -1;
    }
    if (!ra::new_game(reinterpret_cast<StateObject*>(self)->st, players, seed, long_suns, late)) {
        PyErr_SetString(PyExc_ValueError,
                        "Ra is for 2 to 5 players (R2.1); suns_per_player 4-7 is the long 2-player game "
                        "(R2.3), 0 the standard one");
        return -1;
    }
    return 0;
}

PyObject* State_from_bytes(PyObject* cls, PyObject* arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return nullptr;
    StateObject* obj = new_state_object();
    bool ok = obj && read_packed(static_cast<const uint8_t*>(view.buf), view.len, obj->st);
    PyBuffer_Release(&view);
    if (!ok) {
        Py_XDECREF(obj);
        return nullptr;
    }
    return reinterpret_cast<PyObject*>(obj);
}

PyObject* State_from_game(PyObject* cls, PyObject* game) {
    StateObject* obj = new_state_object();
    if (!obj) return nullptr;
    if (!read_game(game, obj->st)) {
        Py_DECREF(obj);
        return nullptr;
    }
    return reinterpret_cast<PyObject*>(obj);
}

inline ra::State& ST(PyObject* self) { return reinterpret_cast<StateObject*>(self)->st; }

PyObject* State_clone(PyObject* self, PyObject*) {
    StateObject* obj = new_state_object();
    if (!obj) return nullptr;
    std::memcpy(&obj->st, &ST(self), sizeof(ra::State));
    return reinterpret_cast<PyObject*>(obj);
}

PyObject* State_legal_mask(PyObject* self, PyObject*) {
    return PyLong_FromUnsignedLongLong(ra::legal_mask(ST(self)));
}

PyObject* State_legal_actions(PyObject* self, PyObject*) {
    uint64_t m = ra::legal_mask(ST(self));
    PyObject* out = PyList_New(ra::popcount(m));
    if (!out) return nullptr;
    for (Py_ssize_t i = 0; m; ++i, m &= m - 1) PyList_SET_ITEM(out, i, PyLong_FromLong(__builtin_ctzll(m)));
    return out;
}

PyObject* State_apply(PyObject* self, PyObject* arg) {
    long a = PyLong_AsLong(arg);
    if (a == -1 && PyErr_Occurred()) return nullptr;
    if (!ra::apply(ST(self), (int)a)) {
        PyErr_Format(PyExc_ValueError, "action %ld is not legal now", a);
        return nullptr;
    }
    Py_RETURN_NONE;
}

PyObject* State_chance_outcomes(PyObject* self, PyObject*) {
    const ra::State& s = ST(self);
    PyObject* out = PyList_New(0);
    if (!out || s.phase != ra::PHASE_ACTION) return out;
    double left = (double)(s.bag_size - s.drawn);
    for (int t = 0; t < ra::NUM_KINDS; ++t) {
        if (!s.unseen[t]) continue;
        PyObject* item = Py_BuildValue("(id)", t, s.unseen[t] / left);
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return nullptr;
        }
        Py_DECREF(item);
    }
    return out;
}

PyObject* State_apply_draw(PyObject* self, PyObject* arg) {
    long t = PyLong_AsLong(arg);
    if (t == -1 && PyErr_Occurred()) return nullptr;
    ra::State& s = ST(self);
    if (s.phase != ra::PHASE_ACTION || !ra::stack_draw(s, (int)t)) {
        PyErr_Format(PyExc_ValueError, "tile %ld cannot be drawn now (R3.2, R3.3)", t);
        return nullptr;
    }
    ra::apply(s, ra::A_DRAW);
    Py_RETURN_NONE;
}

PyObject* State_is_over(PyObject* self, PyObject*) { return PyBool_FromLong(ra::is_over(ST(self))); }

PyObject* State_greedy_action(PyObject* self, PyObject* args, PyObject* kwargs);
PyObject* State_mcts(PyObject* self, PyObject* args, PyObject* kwargs);
PyObject* State_mcts_stats(PyObject* self, PyObject* args, PyObject* kwargs);

PyObject* tuple_u8(const uint8_t* v, int n) {
    PyObject* t = PyTuple_New(n);
    for (int i = 0; t && i < n; ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLong(v[i]));
    return t;
}

PyObject* State_snapshot(PyObject* self, PyObject*) {
    const ra::State& s = ST(self);
    int n = s.n;
    PyObject* suns = PyTuple_New(n);
    PyObject* used = PyTuple_New(n);
    PyObject* scores = PyTuple_New(n);
    PyObject* displays = PyTuple_New(n);
    for (int i = 0; i < n; ++i) {
        PyTuple_SET_ITEM(suns, i, PyLong_FromUnsignedLong(s.suns[i]));
        PyTuple_SET_ITEM(used, i, PyLong_FromUnsignedLong(s.used[i]));
        PyTuple_SET_ITEM(scores, i, PyLong_FromLong(s.scores[i]));
        PyTuple_SET_ITEM(displays, i, tuple_u8(s.displays[i], ra::NUM_KINDS));
    }
    PyObject* bds = PyTuple_New(s.num_epochs_scored);
    for (int e = 0; e < s.num_epochs_scored; ++e) {
        PyObject* ep = PyTuple_New(n);
        for (int i = 0; i < n; ++i) {
            const ra::Breakdown& b = s.breakdowns[e][i];
            PyTuple_SET_ITEM(ep, i,
                             Py_BuildValue("(ii(iiiiiii)ii)", e + 1, i, b.points[0], b.points[1], b.points[2],
                                           b.points[3], b.points[4], b.points[5], b.points[6], b.before,
                                           b.after));
        }
        PyTuple_SET_ITEM(bds, e, ep);
    }
    return Py_BuildValue(
        "(iiiiiiiiiOiiiiiNiiiNNNNNNNiN)", n, s.ra_end, s.epoch, s.phase, s.to_move, s.ra_player, s.auction_kind,
        s.high, s.high_bidder, s.must_bid ? Py_True : Py_False, s.unrest_left, s.quake_left, s.after_discard,
        s.center, s.ra, tuple_u8(s.track, s.track_len), s.drawn, s.bag_size, s.num_decisions, suns, used,
        scores, displays, tuple_u8(s.unseen, ra::NUM_KINDS), tuple_u8(s.box, ra::NUM_KINDS), bds,
        (int)s.late_disasters, tuple_u8(s.pending, s.pending_len));
}

PyObject* State_get_to_move(PyObject* self, void*) {
    const ra::State& s = ST(self);
    if (ra::is_over(s)) Py_RETURN_NONE;
    return PyLong_FromLong(s.to_move);
}
PyObject* State_get_winner(PyObject* self, void*) {
    int w = ra::winner(ST(self));
    if (w < 0) Py_RETURN_NONE;
    return PyLong_FromLong(w);
}
PyObject* State_get_scores(PyObject* self, void*) {
    const ra::State& s = ST(self);
    PyObject* out = PyList_New(s.n);
    for (int i = 0; out && i < s.n; ++i) PyList_SET_ITEM(out, i, PyLong_FromLong(s.scores[i]));
    return out;
}
PyObject* State_get_phase(PyObject* self, void*) { return PyLong_FromLong(ST(self).phase); }
PyObject* State_get_epoch(PyObject* self, void*) { return PyLong_FromLong(ST(self).epoch); }
PyObject* State_get_num_players(PyObject* self, void*) { return PyLong_FromLong(ST(self).n); }
PyObject* State_get_num_decisions(PyObject* self, void*) { return PyLong_FromLong(ST(self).num_decisions); }

// --- bots ---------------------------------------------------------------------------------------

bool parse_weights(PyObject* obj, ra::Weights& w) {
    if (!obj || obj == Py_None) return true;
    PyObject* seq = PySequence_Fast(obj, "weights must be a sequence of 12 numbers");
    if (!seq) return false;
    if (PySequence_Fast_GET_SIZE(seq) != 12) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "weights must be 12 numbers (ra.bots.valuation.Weights)");
        return false;
    }
    double* dst[12] = {&w.pharaoh_future, &w.nile_future, &w.flood_chance, &w.civ_chance,
                       &w.monument_potential, &w.god_option, &w.sun_step, &w.sun_cost,
                       &w.min_gain, &w.invoke_gain, &w.invoke_lead, &w.god_margin};
    for (int i = 0; i < 12; ++i) {
        *dst[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (*dst[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return false;
        }
    }
    Py_DECREF(seq);
    return true;
}

PyObject* State_greedy_action(PyObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"weights", nullptr};
    PyObject* weights = nullptr;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", const_cast<char**>(kw), &weights)) return nullptr;
    ra::Weights w;
    if (!parse_weights(weights, w)) return nullptr;
    const ra::State& s = ST(self);
    if (ra::is_over(s)) {
        PyErr_SetString(PyExc_ValueError, "the game is over: no decision to take");
        return nullptr;
    }
    return PyLong_FromLong(ra::greedy_action(s, w));
}

// The learned evaluation's coefficients (ra.bots.value_model.ValueModel.flat()): None for the
// heuristic, else 4 player counts x 2 epochs x VALUE_FEATURES numbers; `model` is then set.
constexpr int VALUE_MODEL_SIZE = (ra::MAX_PLAYERS - ra::MIN_PLAYERS + 1) * 2 * ra::VALUE_FEATURES;

bool parse_value_model(PyObject* obj, ra::ValueModel& storage, const ra::ValueModel*& model) {
    model = nullptr;
    if (!obj || obj == Py_None) return true;
    PyObject* seq = PySequence_Fast(obj, "value_model must be a sequence of numbers");
    if (!seq) return false;
    if (PySequence_Fast_GET_SIZE(seq) != VALUE_MODEL_SIZE) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "value_model must be %d numbers (ra.bots.value_model)", VALUE_MODEL_SIZE);
        return false;
    }
    double* dst = &storage.coef[0][0][0];
    for (int i = 0; i < VALUE_MODEL_SIZE; ++i) {
        dst[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(seq, i));
        if (dst[i] == -1.0 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return false;
        }
    }
    Py_DECREF(seq);
    model = &storage;
    return true;
}

PyObject* State_value_features(PyObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"seat", "weights", nullptr};
    int seat = 0;
    PyObject* weights = nullptr;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i|O", const_cast<char**>(kw), &seat, &weights)) return nullptr;
    ra::Weights w;
    if (!parse_weights(weights, w)) return nullptr;
    const ra::State& s = ST(self);
    if (seat < 0 || seat >= s.n) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return nullptr;
    }
    double heuristic[ra::MAX_PLAYERS], f[ra::VALUE_FEATURES];
    ra::projected_scores(s, w, heuristic);
    ra::value_features(s, seat, heuristic[seat] - (double)s.scores[seat], f);
    PyObject* list = PyList_New(ra::VALUE_FEATURES);
    for (int i = 0; list && i < ra::VALUE_FEATURES; ++i) PyList_SET_ITEM(list, i, PyFloat_FromDouble(f[i]));
    return list;
}

PyObject* State_projected_scores(PyObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"weights", "value_model", nullptr};
    PyObject* weights = nullptr;
    PyObject* value_model = nullptr;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO", const_cast<char**>(kw), &weights, &value_model))
        return nullptr;
    ra::Weights w;
    if (!parse_weights(weights, w)) return nullptr;
    ra::ValueModel storage;
    const ra::ValueModel* model;
    if (!parse_value_model(value_model, storage, model)) return nullptr;
    const ra::State& s = ST(self);
    double out[ra::MAX_PLAYERS];
    ra::projected_scores(s, w, out, model);
    PyObject* list = PyList_New(s.n);
    for (int i = 0; list && i < s.n; ++i) PyList_SET_ITEM(list, i, PyFloat_FromDouble(out[i]));
    return list;
}

// The `check` callable of mcts(): called with the GIL every 256 iterations; an exception
// it raises abandons the search and propagates (the terminal game's cancel, for instance).
struct Poll {
    PyObject* check;
    PyThreadState* saved;
    bool failed;
};

bool poll_check(void* arg) {
    auto* p = static_cast<Poll*>(arg);
    PyEval_RestoreThread(p->saved);
    PyObject* r = PyObject_CallNoArgs(p->check);
    Py_XDECREF(r);
    p->failed = r == nullptr;
    p->saved = PyEval_SaveThread();
    return !p->failed;
}

// A random move's chance (greedy rollouts and playouts): false with a ValueError outside 0..1.
bool epsilon_in_range(double epsilon) {
    if (epsilon >= 0.0 && epsilon <= 1.0) return true;
    PyErr_SetString(PyExc_ValueError, "epsilon must be from 0 to 1");
    return false;
}

// A policy net from its flat float64 buffer (ra.bots.policy.Policy.flat, an array('d')); false
// with a ValueError naming what is wrong.
bool parse_policy(PyObject* obj, ra::PolicyNet& net, bool value = false) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_FORMAT) != 0) return false;
    bool doubles = view.itemsize == 8 && view.format && std::string(view.format) == "d";
    auto from_flat = value ? ra::value_from_flat : ra::policy_from_flat;
    const char* why = doubles ? from_flat(static_cast<const double*>(view.buf), (size_t)(view.len / 8), net)
                              : "a net is a buffer of float64 (array('d'))";
    PyBuffer_Release(&view);
    if (*why) {
        PyErr_SetString(PyExc_ValueError, why);
        return false;
    }
    return true;
}

// The settings shared by mcts() and mcts_stats(), parsed and checked.
struct SearchArgs {
    ra::MctsConfig cfg;
    ra::Weights w;
    ra::ValueModel model;  // cfg.model points here when a value_model was given
    ra::PolicyNet net;     // cfg.prior points here when a prior was given
    ra::PolicyNet value;   // cfg.value points here when a value net was given
    unsigned long long seed = 0;
    PyObject* check = nullptr;
};

bool parse_search_args(PyObject* self, PyObject* args, PyObject* kwargs, SearchArgs& out) {
    static const char* kw[] = {"iterations", "seed",    "seconds", "exploration", "horizon",     "margin_scale",
                               "win_weight", "rollout", "weights", "check",       "value_model", "epsilon",
                               "prior",      "c_puct",  "hidden",  "value_net",   "value_weight", nullptr};
    ra::MctsConfig& cfg = out.cfg;
    long long iterations = cfg.iterations;
    const char* rollout = "greedy";
    PyObject* weights = nullptr;
    PyObject* check = nullptr;
    PyObject* value_model = nullptr;
    PyObject* prior = nullptr;
    PyObject* value_net = nullptr;
    int hidden = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|LKddiddsOOOdOdpOd", const_cast<char**>(kw), &iterations,
                                     &out.seed, &cfg.seconds, &cfg.exploration, &cfg.horizon, &cfg.margin_scale,
                                     &cfg.win_weight, &rollout, &weights, &check, &value_model, &cfg.epsilon,
                                     &prior, &cfg.c_puct, &hidden, &value_net, &cfg.value_weight))
        return false;
    cfg.hidden = hidden != 0;
    if (value_net && value_net != Py_None) {
        if (!parse_policy(value_net, out.value, true)) return false;
        cfg.value = &out.value;
    }
    if (!(cfg.value_weight >= 0.0 && cfg.value_weight <= 1.0)) {
        PyErr_SetString(PyExc_ValueError, "value_weight must be from 0 to 1");
        return false;
    }
    if (prior && prior != Py_None) {
        if (!parse_policy(prior, out.net)) return false;
        cfg.prior = &out.net;
    }
    if (!(cfg.c_puct >= 0.0)) {
        PyErr_SetString(PyExc_ValueError, "c_puct must be 0 or more");
        return false;
    }
    if (!epsilon_in_range(cfg.epsilon)) return false;
    if (!parse_value_model(value_model, out.model, cfg.model)) return false;
    if (check == Py_None) check = nullptr;
    if (check && !PyCallable_Check(check)) {
        PyErr_SetString(PyExc_TypeError, "check must be callable");
        return false;
    }
    if (!parse_weights(weights, out.w)) return false;
    std::string r = rollout;
    if (r != "greedy" && r != "random") {
        PyErr_SetString(PyExc_ValueError, "rollout must be greedy or random");
        return false;
    }
    if (iterations < 1 || cfg.horizon < 1 || cfg.horizon > 3 || cfg.margin_scale <= 0) {
        PyErr_SetString(PyExc_ValueError, "iterations >= 1, horizon 1-3 and margin_scale > 0");
        return false;
    }
    cfg.iterations = iterations;
    cfg.greedy_rollout = r == "greedy";
    out.check = check;
    if (ra::is_over(ST(self))) {
        PyErr_SetString(PyExc_ValueError, "the game is over: no decision to take");
        return false;
    }
    return true;
}

// Run the search without the GIL (the check callable takes it back every 256 iterations).
// Returns false when the check raised.
bool run_search(PyObject* self, SearchArgs& a, int* action, int64_t* done, std::vector<ra::RootStat>* stats) {
    ra::State root = ST(self);
    Poll poll{a.check, nullptr, false};
    if (a.check) {
        a.cfg.poll = poll_check;
        a.cfg.poll_arg = &poll;
    }
    poll.saved = PyEval_SaveThread();
    *action = ra::mcts_search(root, a.cfg, a.w, a.seed, done, stats);
    PyEval_RestoreThread(poll.saved);
    return !poll.failed;
}

PyObject* State_mcts(PyObject* self, PyObject* args, PyObject* kwargs) {
    SearchArgs a;
    if (!parse_search_args(self, args, kwargs, a)) return nullptr;
    int action = -1;
    int64_t done = 0;
    if (!run_search(self, a, &action, &done, nullptr)) return nullptr;
    return Py_BuildValue("(iL)", action, (long long)done);
}

// The search's root statistics: (best action, iterations, [(action, visits, reward sum,
// margin sum, (leads per player...)), ...]) in the order the actions were first tried.
PyObject* State_mcts_stats(PyObject* self, PyObject* args, PyObject* kwargs) {
    SearchArgs a;
    if (!parse_search_args(self, args, kwargs, a)) return nullptr;
    int action = -1;
    int64_t done = 0;
    std::vector<ra::RootStat> stats;
    if (!run_search(self, a, &action, &done, &stats)) return nullptr;
    int n = ST(self).n;
    PyObject* list = PyList_New((Py_ssize_t)stats.size());
    if (!list) return nullptr;
    for (size_t k = 0; k < stats.size(); ++k) {
        const ra::RootStat& st = stats[k];
        PyObject* leads = PyTuple_New(n);
        if (!leads) {
            Py_DECREF(list);
            return nullptr;
        }
        for (int i = 0; i < n; ++i) {
            PyObject* x = PyFloat_FromDouble(st.leads[i]);
            if (!x) {
                Py_DECREF(leads);
                Py_DECREF(list);
                return nullptr;
            }
            PyTuple_SET_ITEM(leads, i, x);
        }
        PyObject* item = Py_BuildValue("(iiddN)", st.action, st.visits, st.reward, st.margin, leads);
        if (!item) {
            Py_DECREF(list);
            return nullptr;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)k, item);
    }
    return Py_BuildValue("(iLN)", action, (long long)done, list);
}

// The policy net's 54 logits for the mover's view (ra.bots.policy): a list of floats.
PyObject* State_policy_logits(PyObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"net", "hidden", nullptr};
    PyObject* net_obj = nullptr;
    int hidden = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|p", const_cast<char**>(kw), &net_obj, &hidden)) return nullptr;
    ra::PolicyNet net;
    if (!parse_policy(net_obj, net)) return nullptr;
    const ra::State& s = ST(self);
    if (ra::is_over(s)) {
        PyErr_SetString(PyExc_ValueError, "the game is over: no mover to judge");
        return nullptr;
    }
    float obs[ra::OBSERVATION_SIZE];
    ra::encode(s, s.to_move, hidden != 0, obs);
    double logits[ra::NUM_ACTIONS];
    ra::policy_logits(net, obs, logits);
    PyObject* list = PyList_New(ra::NUM_ACTIONS);
    for (int a = 0; list && a < ra::NUM_ACTIONS; ++a) PyList_SET_ITEM(list, a, PyFloat_FromDouble(logits[a]));
    return list;
}

// The value net's chance for `seat` to win (ra.bots.value_net.ValueNet.chance of its observation).
PyObject* State_value_chance(PyObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"net", "seat", "hidden", nullptr};
    PyObject* net_obj = nullptr;
    int seat = 0, hidden = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Oi|p", const_cast<char**>(kw), &net_obj, &seat, &hidden))
        return nullptr;
    ra::PolicyNet net;
    if (!parse_policy(net_obj, net, true)) return nullptr;
    const ra::State& s = ST(self);
    if (seat < 0 || seat >= s.n) {
        PyErr_SetString(PyExc_ValueError, "seat must be one of the game's seats");
        return nullptr;
    }
    return PyFloat_FromDouble(ra::value_chance(net, s, seat, hidden != 0));
}

PyObject* State_random_playout(PyObject* self, PyObject* arg) {
    unsigned long long seed = PyLong_AsUnsignedLongLongMask(arg);
    if (PyErr_Occurred()) return nullptr;
    ra::State& s = ST(self);
    ra::Rng rng(seed);
    while (!ra::is_over(s)) {
        ra::apply_legal(s, ra::random_bit(ra::legal_mask(s), rng));
    }
    Py_RETURN_NONE;
}

// Play to the end with the greedy bot's policy, a uniformly random legal action with chance
// `epsilon` (the playouts of ra.bots.evaluate.GreedyPlayouts, natively; GIL released).
PyObject* State_greedy_playout(PyObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"seed", "epsilon", "weights", nullptr};
    unsigned long long seed = 0;
    double epsilon = 0.0;
    PyObject* weights = nullptr;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "K|dO", const_cast<char**>(kw), &seed, &epsilon, &weights))
        return nullptr;
    if (!epsilon_in_range(epsilon)) return nullptr;
    ra::Weights w;
    if (!parse_weights(weights, w)) return nullptr;
    ra::State& s = ST(self);
    Py_BEGIN_ALLOW_THREADS ra::Rng rng(seed);
    while (!ra::is_over(s)) ra::apply_legal(s, ra::epsilon_greedy_action(s, w, epsilon, rng));
    Py_END_ALLOW_THREADS Py_RETURN_NONE;
}

PyMethodDef State_methods[] = {
    {"from_game", (PyCFunction)State_from_game, METH_O | METH_CLASS,
     "The native state of a ra.Game (its whole bag order too) or a ra.PlayerView (bag unknown)."},
    {"from_bytes", (PyCFunction)State_from_bytes, METH_O | METH_CLASS,
     "A position from the packed layout of ra.native.pack (bytes)."},
    {"clone", State_clone, METH_NOARGS, "An independent copy (a memcpy)."},
    {"legal_mask", State_legal_mask, METH_NOARGS, "Bit a is set for every legal action index a."},
    {"legal_actions", State_legal_actions, METH_NOARGS, "The legal action indices, ascending."},
    {"apply", State_apply, METH_O, "Apply an action index (ValueError if illegal)."},
    {"chance_outcomes", State_chance_outcomes, METH_NOARGS, "(tile, probability) of a draw now."},
    {"apply_draw", State_apply_draw, METH_O, "Draw with this tile coming out (a chosen chance outcome)."},
    {"is_over", State_is_over, METH_NOARGS, "Whether the game has ended."},
    {"snapshot", State_snapshot, METH_NOARGS, "Every field of the position as a tuple (for comparison)."},
    {"greedy_action", (PyCFunction)(void (*)(void))State_greedy_action, METH_VARARGS | METH_KEYWORDS,
     "The greedy bot's action index for the player to move."},
    {"projected_scores", (PyCFunction)(void (*)(void))State_projected_scores, METH_VARARGS | METH_KEYWORDS,
     "ra.bots.mcts.projected_scores: scores so far plus what each player keeps (rollout value)."},
    {"value_features", (PyCFunction)(void (*)(void))State_value_features, METH_VARARGS | METH_KEYWORDS,
     "value_features(seat, weights=None): the learned evaluation's features of a seat (ra.bots.value_model)."},
    {"mcts", (PyCFunction)(void (*)(void))State_mcts, METH_VARARGS | METH_KEYWORDS,
     "Native ISMCTS for the player to move: (action index, iterations made)."},
    {"mcts_stats", (PyCFunction)(void (*)(void))State_mcts_stats, METH_VARARGS | METH_KEYWORDS,
     "mcts() with its root statistics: (action, iterations, [(action, visits, reward sum, margin sum, "
     "leads)])."},
    {"policy_logits", (PyCFunction)(void (*)(void))State_policy_logits, METH_VARARGS | METH_KEYWORDS,
     "policy_logits(net, hidden=False): the policy net's 54 logits for the mover's observation."},
    {"value_chance", (PyCFunction)(void (*)(void))State_value_chance, METH_VARARGS | METH_KEYWORDS,
     "value_chance(net, seat, hidden=False): the value net's chance for seat to win, from its observation."},
    {"random_playout", State_random_playout, METH_O, "Play uniformly random actions to the end."},
    {"greedy_playout", (PyCFunction)(void (*)(void))State_greedy_playout, METH_VARARGS | METH_KEYWORDS,
     "greedy_playout(seed, epsilon=0.0, weights=None): play the greedy policy to the end, a random "
     "legal action with chance epsilon."},
    {nullptr, nullptr, 0, nullptr}};

PyGetSetDef State_getset[] = {
    {"to_move", State_get_to_move, nullptr, "The seat to decide, None once over.", nullptr},
    {"winner", State_get_winner, nullptr, "The winning seat once over (R8.1), else None.", nullptr},
    {"scores", State_get_scores, nullptr, "Each seat's score.", nullptr},
    {"phase", State_get_phase, nullptr, "The engine's phase code (ra.state.PHASE_*).", nullptr},
    {"epoch", State_get_epoch, nullptr, "1, 2 or 3.", nullptr},
    {"num_players", State_get_num_players, nullptr, "2-5.", nullptr},
    {"num_decisions", State_get_num_decisions, nullptr, "Decisions taken so far.", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyTypeObject StateType = {PyVarObject_HEAD_INIT(nullptr, 0)};

// --- batch functions ----------------------------------------------------------------------------

// Play `games` games of `players` players (0: mixed 2-5 round-robin) with a policy; aggregates.
PyObject* playouts(PyObject* args, PyObject* kwargs, bool greedy) {
    static const char* kw[] = {"games", "players", "seed", nullptr};
    long long games = 0;
    int players = 0;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Li|K", const_cast<char**>(kw), &games, &players, &seed))
        return nullptr;
    if (games < 0 || (players != 0 && (players < ra::MIN_PLAYERS || players > ra::MAX_PLAYERS))) {
        PyErr_SetString(PyExc_ValueError, "games >= 0 and players 2-5 (or 0 for mixed 2-5)");
        return nullptr;
    }
    long long decisions = 0, wins[ra::MAX_PLAYERS] = {0}, score_sum = 0;
    ra::Weights w;
    Py_BEGIN_ALLOW_THREADS ra::Rng rng(seed ^ 0xA5A5A5A5ULL);
    ra::State s;
    for (long long g = 0; g < games; ++g) {
        int n = players ? players : 2 + (int)(g % 4);
        ra::new_game(s, n, seed + (unsigned long long)g, 0);
        while (!ra::is_over(s)) {
            ra::apply_legal(s, greedy ? ra::greedy_action(s, w) : ra::random_bit(ra::legal_mask(s), rng));
        }
        decisions += s.num_decisions;
        wins[ra::winner(s)]++;
        for (int i = 0; i < n; ++i) score_sum += s.scores[i];
    }
    Py_END_ALLOW_THREADS return Py_BuildValue("{sLsLs(LLLLL)sL}", "games", games, "decisions", decisions,
                                              "wins", wins[0], wins[1], wins[2], wins[3], wins[4],
                                              "score_total", score_sum);
}

PyObject* random_playouts(PyObject*, PyObject* args, PyObject* kwargs) { return playouts(args, kwargs, false); }
PyObject* greedy_playouts(PyObject*, PyObject* args, PyObject* kwargs) { return playouts(args, kwargs, true); }

PyObject* state_size(PyObject*, PyObject*) { return PyLong_FromSize_t(sizeof(ra::State)); }

// --- ra._core.VectorEnv: a batch of games (native/vector.cpp, src/ra/envs/vector.py) -----------

struct VectorEnvObject {
    PyObject_HEAD ra::VectorEnv* env;
};

extern PyTypeObject VectorEnvType;

// A writable C-contiguous buffer of `count` items of `itemsize` bytes and one of `formats`.
bool take_buffer(PyObject* obj, Py_buffer* view, Py_ssize_t count, Py_ssize_t itemsize, const char* formats,
                 const char* what, bool writable = true) {
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "%s: a %scontiguous array is needed", what, writable ? "writable " : "");
        return false;
    }
    const char* f = view->format ? view->format : "B";
    while (*f == '<' || *f == '=' || *f == '@') ++f;
    bool ok = view->itemsize == itemsize && view->len == count * itemsize && std::strchr(formats, *f) && f[1] == 0;
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items of %zd bytes expected (format %s), got %zd of %zd (%s)", what,
                     count, itemsize, formats, view->len / (view->itemsize ? view->itemsize : 1), view->itemsize,
                     view->format ? view->format : "?");
        PyBuffer_Release(view);
    }
    return ok;
}

int VectorEnv_init(PyObject* self, PyObject* args, PyObject* kwargs) {
    static const char* kw[] = {"num_envs", "players", "seed", "opponents", "hidden_scores", "suns_per_player",
                               nullptr};
    int num_envs = 1, players = 3, opponents = ra::OPP_RANDOM, hidden = 0, long_suns = 0;
    unsigned long long seed = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "i|iKipi", const_cast<char**>(kw), &num_envs, &players, &seed,
                                     &opponents, &hidden, &long_suns))
        return -1;
    ra::State probe;
    if (num_envs < 1 || num_envs > 1 << 20 || opponents < ra::OPP_NONE || opponents > ra::OPP_GREEDY ||
        !ra::new_game(probe, players, 0, long_suns)) {
        PyErr_SetString(PyExc_ValueError,
                        "num_envs 1..1048576, players 2-5 (R2.1), opponents 0 (none) 1 (random) 2 (greedy), "
                        "suns_per_player 0 or 4-7 with 2 players (R2.3)");
        return -1;
    }
    auto* env = new ra::VectorEnv();
    env->num_envs = num_envs;
    env->players = players;
    env->opponents = opponents;
    env->hidden = hidden != 0;
    env->long_suns = long_suns;
    env->rng.reseed(seed);
    env->states.resize(num_envs);
    env->agent.assign(num_envs, 0);
    auto* obj = reinterpret_cast<VectorEnvObject*>(self);
    delete obj->env;
    obj->env = env;
    return 0;
}

void VectorEnv_dealloc(PyObject* self) {
    delete reinterpret_cast<VectorEnvObject*>(self)->env;
    Py_TYPE(self)->tp_free(self);
}

ra::VectorEnv* ENV(PyObject* self) { return reinterpret_cast<VectorEnvObject*>(self)->env; }

// The three per-game outputs (observations, masks, seats to move) of a batch, or false (and
// nothing held) when one of them is not an array of the right size and type.
bool take_outputs(ra::VectorEnv* env, PyObject* args, Py_buffer out[3]) {
    PyObject *o_obs, *o_mask, *o_to_move;
    if (!PyArg_ParseTuple(args, "OOO", &o_obs, &o_mask, &o_to_move)) return false;
    Py_ssize_t n = env->num_envs;
    if (!take_buffer(o_obs, &out[0], n * ra::OBSERVATION_SIZE, 4, "f", "obs")) return false;
    if (!take_buffer(o_mask, &out[1], n * ra::NUM_ACTIONS, 1, "bB?", "mask")) {
        PyBuffer_Release(&out[0]);
        return false;
    }
    if (!take_buffer(o_to_move, &out[2], n, 1, "b", "to_move")) {
        PyBuffer_Release(&out[0]);
        PyBuffer_Release(&out[1]);
        return false;
    }
    return true;
}

PyObject* VectorEnv_reset(PyObject* self, PyObject* args) {
    ra::VectorEnv* env = ENV(self);
    Py_buffer out[3];
    if (!take_outputs(env, args, out)) return nullptr;
    Py_BEGIN_ALLOW_THREADS
    env->reset(static_cast<float*>(out[0].buf), static_cast<int8_t*>(out[1].buf), static_cast<int8_t*>(out[2].buf));
    Py_END_ALLOW_THREADS
    for (auto& b : out) PyBuffer_Release(&b);
    Py_RETURN_NONE;
}

PyObject* VectorEnv_step(PyObject* self, PyObject* args) {
    PyObject *o_actions, *o_obs, *o_mask, *o_reward, *o_done, *o_to_move;
    if (!PyArg_ParseTuple(args, "OOOOOO", &o_actions, &o_obs, &o_mask, &o_reward, &o_done, &o_to_move))
        return nullptr;
    ra::VectorEnv* env = ENV(self);
    Py_ssize_t n = env->num_envs;
    Py_buffer b[6];
    struct Spec {
        PyObject* obj;
        Py_ssize_t count, size;
        const char* formats;
        const char* what;
        bool writable;
    } specs[6] = {{o_actions, n, 4, "il", "actions", false},     {o_obs, n * ra::OBSERVATION_SIZE, 4, "f", "obs", true},
                  {o_mask, n * ra::NUM_ACTIONS, 1, "bB?", "mask", true}, {o_reward, n, 4, "f", "reward", true},
                  {o_done, n, 1, "bB?", "terminated", true},          {o_to_move, n, 1, "b", "to_move", true}};
    int got = 0;
    for (; got < 6; ++got)
        if (!take_buffer(specs[got].obj, &b[got], specs[got].count, specs[got].size, specs[got].formats,
                         specs[got].what, specs[got].writable))
            break;
    if (got < 6) {
        for (int k = 0; k < got; ++k) PyBuffer_Release(&b[k]);
        return nullptr;
    }
    int bad;
    Py_BEGIN_ALLOW_THREADS
    bad = env->step(static_cast<const int32_t*>(b[0].buf), static_cast<float*>(b[1].buf), static_cast<int8_t*>(b[2].buf),
                    static_cast<float*>(b[3].buf), static_cast<uint8_t*>(b[4].buf), static_cast<int8_t*>(b[5].buf));
    Py_END_ALLOW_THREADS
    int action = bad >= 0 ? static_cast<const int32_t*>(b[0].buf)[bad] : 0;
    for (auto& v : b) PyBuffer_Release(&v);
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "action %d is not legal in game %d (nothing was applied)", action, bad);
        return nullptr;
    }
    Py_RETURN_NONE;
}

PyObject* VectorEnv_state(PyObject* self, PyObject* arg) {
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return nullptr;
    ra::VectorEnv* env = ENV(self);
    if (i < 0 || i >= env->num_envs) {
        PyErr_Format(PyExc_IndexError, "no game %ld: games are 0-%d", i, env->num_envs - 1);
        return nullptr;
    }
    StateObject* obj = new_state_object();
    if (!obj) return nullptr;
    std::memcpy(&obj->st, &env->states[i], sizeof(ra::State));
    return reinterpret_cast<PyObject*>(obj);
}

PyObject* VectorEnv_observe_all(PyObject* self, PyObject* arg) {
    ra::VectorEnv* env = ENV(self);
    Py_buffer out;
    Py_ssize_t count = (Py_ssize_t)env->num_envs * env->players * ra::OBSERVATION_SIZE;
    if (!take_buffer(arg, &out, count, 4, "f", "observations")) return nullptr;
    Py_BEGIN_ALLOW_THREADS
    float* obs = static_cast<float*>(out.buf);
    for (int i = 0; i < env->num_envs; ++i)
        for (int seat = 0; seat < env->players; ++seat)
            ra::encode(env->states[i], seat, env->hidden,
                       obs + ((size_t)i * env->players + seat) * ra::OBSERVATION_SIZE);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

PyObject* VectorEnv_set_state(PyObject* self, PyObject* args) {
    long i;
    PyObject* state;
    if (!PyArg_ParseTuple(args, "lO!", &i, &StateType, &state)) return nullptr;
    ra::VectorEnv* env = ENV(self);
    const ra::State& st = reinterpret_cast<StateObject*>(state)->st;
    if (i < 0 || i >= env->num_envs) {
        PyErr_Format(PyExc_IndexError, "no game %ld: games are 0-%d", i, env->num_envs - 1);
        return nullptr;
    }
    if (st.n != env->players) {
        PyErr_Format(PyExc_ValueError, "a %d-player position in a batch of %d-player games", st.n, env->players);
        return nullptr;
    }
    std::memcpy(&env->states[i], &st, sizeof(ra::State));
    Py_RETURN_NONE;
}

PyObject* VectorEnv_observe(PyObject* self, PyObject* args) {
    ra::VectorEnv* env = ENV(self);
    Py_buffer out[3];
    if (!take_outputs(env, args, out)) return nullptr;
    for (int i = 0; i < env->num_envs; ++i)
        env->write(i, static_cast<float*>(out[0].buf), static_cast<int8_t*>(out[1].buf), static_cast<int8_t*>(out[2].buf));
    for (auto& b : out) PyBuffer_Release(&b);
    Py_RETURN_NONE;
}

PyObject* VectorEnv_agents(PyObject* self, PyObject*) {
    ra::VectorEnv* env = ENV(self);
    PyObject* out = PyList_New(env->num_envs);
    for (int i = 0; out && i < env->num_envs; ++i) PyList_SET_ITEM(out, i, PyLong_FromLong(env->agent[i]));
    return out;
}

PyObject* encode_observation(PyObject*, PyObject* args) {
    PyObject* state;
    int me, hidden;
    if (!PyArg_ParseTuple(args, "O!ip", &StateType, &state, &me, &hidden)) return nullptr;
    const ra::State& s = reinterpret_cast<StateObject*>(state)->st;
    if (me < 0 || me >= s.n) {
        PyErr_Format(PyExc_ValueError, "no seat %d in a %d-player game", me, s.n);
        return nullptr;
    }
    float obs[ra::OBSERVATION_SIZE];
    ra::encode(s, me, hidden != 0, obs);
    PyObject* out = PyList_New(ra::OBSERVATION_SIZE);
    for (int k = 0; out && k < ra::OBSERVATION_SIZE; ++k) PyList_SET_ITEM(out, k, PyFloat_FromDouble(obs[k]));
    return out;
}

PyMethodDef VectorEnv_methods[] = {
    {"reset", VectorEnv_reset, METH_VARARGS, "reset(obs, mask, to_move): new games, written into the arrays."},
    {"step", VectorEnv_step, METH_VARARGS,
     "step(actions, obs, mask, reward, terminated, to_move): one decision in every game (auto-reset)."},
    {"state", VectorEnv_state, METH_O, "A copy of game i's position (a State)."},
    {"set_state", VectorEnv_set_state, METH_VARARGS, "set_state(i, state): game i continues from this position."},
    {"observe", VectorEnv_observe, METH_VARARGS, "observe(obs, mask, to_move): write every game's outputs now."},
    {"agents", VectorEnv_agents, METH_NOARGS, "The learner's seat in each game (opponent modes)."},
    {"observe_all", VectorEnv_observe_all, METH_O,
     "observe_all(obs): every seat's view of every game, (num_envs, players, 370) float32."},
    {nullptr, nullptr, 0, nullptr}};

PyTypeObject VectorEnvType = {
    PyVarObject_HEAD_INIT(nullptr, 0) "ra._core.VectorEnv",  // tp_name
    sizeof(VectorEnvObject),                                  // tp_basicsize
};

PyMethodDef module_methods[] = {
    {"random_playouts", (PyCFunction)(void (*)(void))random_playouts, METH_VARARGS | METH_KEYWORDS,
     "random_playouts(games, players, seed=0): uniformly random games played natively; aggregates."},
    {"greedy_playouts", (PyCFunction)(void (*)(void))greedy_playouts, METH_VARARGS | METH_KEYWORDS,
     "greedy_playouts(games, players, seed=0): games of the greedy bot against itself; aggregates."},
    {"state_size", state_size, METH_NOARGS, "sizeof the native state in bytes."},
    {"encode", encode_observation, METH_VARARGS, "encode(state, seat, hidden_scores): ra.encode's 370 numbers."},
    {"layout", layout, METH_NOARGS, "The packed layout's version and size, and the code tables (phases, tiles, actions)."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "ra._core",
                          "The native core of Ra: engine, greedy bot and ISMCTS (see native/README.md).", -1,
                          module_methods};

}  // namespace

PyMODINIT_FUNC PyInit__core(void) {
    StateType.tp_name = "ra._core.State";
    StateType.tp_basicsize = sizeof(StateObject);
    StateType.tp_flags = Py_TPFLAGS_DEFAULT;
    StateType.tp_doc =
        "A Ra position in native form: State(players=3, seed=0, suns_per_player=0, disaster_timing='immediate').";
    StateType.tp_methods = State_methods;
    StateType.tp_getset = State_getset;
    StateType.tp_init = State_init;
    StateType.tp_new = State_new;
    if (PyType_Ready(&StateType) < 0) return nullptr;
    PyObject* m = PyModule_Create(&module_def);
    if (!m) return nullptr;
    Py_INCREF(&StateType);
    if (PyModule_AddObject(m, "State", reinterpret_cast<PyObject*>(&StateType)) < 0) {
        Py_DECREF(&StateType);
        Py_DECREF(m);
        return nullptr;
    }
    PyModule_AddIntConstant(m, "NUM_ACTIONS", ra::NUM_ACTIONS);
    PyModule_AddIntConstant(m, "OBSERVATION_SIZE", ra::OBSERVATION_SIZE);
    VectorEnvType.tp_flags = Py_TPFLAGS_DEFAULT;
    VectorEnvType.tp_doc =
        "VectorEnv(num_envs, players=3, seed=0, opponents=1, hidden_scores=False, suns_per_player=0): "
        "a batch of games stepped together (see ra.envs.vector).";
    VectorEnvType.tp_methods = VectorEnv_methods;
    VectorEnvType.tp_init = VectorEnv_init;
    VectorEnvType.tp_new = PyType_GenericNew;
    VectorEnvType.tp_dealloc = VectorEnv_dealloc;
    if (PyType_Ready(&VectorEnvType) < 0) {
        Py_DECREF(m);
        return nullptr;
    }
    Py_INCREF(&VectorEnvType);
    if (PyModule_AddObject(m, "VectorEnv", reinterpret_cast<PyObject*>(&VectorEnvType)) < 0) {
        Py_DECREF(&VectorEnvType);
        Py_DECREF(m);
        return nullptr;
    }
    return m;
}
