"""Families of programs whose control flow leaves the plain call/return of one function: closures
with ``nonlocal``, generators (``yield``, ``yield from``, ``send``, ``next`` with a default,
pipelines), generator expressions, exceptions that cross frames, decorators, context managers and
lambdas.
"""

from __future__ import annotations

from .families_common import Piece, class_name, indent, ints, klass, lit, maybe_print, method, some_ints, word, words
from .generator import ProgramRandom


def fam_closure(g: ProgramRandom) -> Piece:
    kind = g.choice(["counter", "accumulator", "factory", "closure_list", "shared"])
    return {"counter": _counter, "accumulator": _accumulator, "factory": _factory, "closure_list": _closure_list, "shared": _shared}[kind](g)


def _counter(g: ProgramRandom) -> Piece:
    maker, inner = g.pick(["make_counter", "counter", "new_counter", "ticker", "make_ticker"]), g.pick(["tick", "step", "bump", "increment", "advance"])
    count, start, step = g.pick(["count", "current", "ticks", "state", "num"]), g.pick(["start", "begin", "initial"]), g.pick(["step", "by", "delta"])
    with_step = g.chance(0.5)
    params = [f"{start}=0"] + ([f"{step}=1"] if with_step else [])
    inc = step if with_step else str(g.small(1, 3))
    defs = [[f"def {maker}({', '.join(params)}):", f"    {count} = {start}", f"    def {inner}():", f"        nonlocal {count}",
             f"        {count} += {inc}", *indent(maybe_print(g, 0.2, repr(inner), count), 2), f"        return {count}", f"    return {inner}"]]
    c1, c2, vals = g.pick(["c", "first", "clock", "ctr"]), g.pick(["d", "other_", "second", "ctr2"]), g.pick(["vals", "seen", "got", "readings"])
    args2 = f"{g.small(5, 20)}" + (f", {-g.small(1, 3)}" if with_step and g.chance(0.6) else "")
    driver = [f"{c1} = {maker}({g.small(0, 5)})", f"{c2} = {maker}({args2})", f"{vals} = []",
              f"for _ in range({g.small(2, 4)}):", f"    {vals}.append({c1}())", f"{vals}.append({c2}())"]
    return Piece(defs, driver, [], g.choice([vals, f"{vals}, {c1}()", f"{vals}, {c2}(), {c1}()"]))


def _accumulator(g: ProgramRandom) -> Piece:
    maker, inner = g.pick(["make_acc", "running", "make_total", "tracker", "collector"]), g.pick(["add", "feed", "push", "record", "take"])
    total, hist, v = g.pick(["total", "acc", "running", "sum_so_far"]), g.pick(["history", "seen", "log", "items"]), g.pick(["v", "amount", "num"])
    best = g.chance(0.4)
    body = [f"    {total} = 0", f"    {hist} = []", f"    def {inner}({v}):", f"        nonlocal {total}"]
    if best:
        body += [f"        if {v} > {total}:", f"            {total} = {v}"]
    else:
        body += [f"        {total} += {v}"]
    body += [f"        {hist}.append({v})", f"        return {total}, len({hist})", f"    return {inner}"]
    fn, xs, x, r = g.pick(["acc", "f", "tally", "keep"]), g.pick(["values", "nums", "stream", "incoming"]), g.pick(["q", "el", "num_"]), g.pick(["last", "r", "state_"])
    driver = [f"{fn} = {maker}()", f"{r} = None", f"for {x} in {xs}:", f"    {r} = {fn}({x})", *indent(maybe_print(g, 0.3, x, r))]
    return Piece([[f"def {maker}():", *body]], driver, [(xs, lit(some_ints(g, 1, 6)))], g.choice([r, f"{r}, {fn}(0)"]))


def _factory(g: ProgramRandom) -> Piece:
    maker, k, v = g.pick(["make_multiplier", "make_adder", "scaler", "make_op", "times"]), g.pick(["k", "factor", "amount", "by"]), g.pick(["v", "num", "arg"])
    expr = g.choice([f"{v} * {k}", f"{v} + {k}", f"{v} - {k}", f"{v} % {k}", f"{v} * {v} + {k}", f"{v} // {k}"])
    if g.chance(0.4):
        defs = [[f"def {maker}({k}):", f"    return lambda {v}: {expr}"]]
    else:
        inner = g.pick(["apply", "inner", "fn", "op"])
        defs = [[f"def {maker}({k}):", f"    def {inner}({v}):", f"        return {expr}", f"    return {inner}"]]
    f1, f2, xs, e = g.pick(["double", "f", "first", "small"]), g.pick(["triple", "g2", "second", "big"]), g.pick(["values", "nums", "inputs"]), g.pick(["el", "q", "num_"])
    driver = [f"{f1} = {maker}({g.small(1, 4)})", f"{f2} = {maker}({g.small(5, 9)})"]
    use = g.choice([f"[{f1}({e}) for {e} in {xs}]", f"list(map({f2}, {xs}))", f"[{f2}({f1}({e})) for {e} in {xs}]"])
    return Piece(defs, driver, [(xs, lit(ints(g, 0, 20, 1, 5)))], f"{use}, {f2}({g.small(1, 9)})")


def _closure_list(g: ProgramRandom) -> Piece:
    fs, i, v, f = g.pick(["funcs", "ops", "handlers", "steps"]), g.pick(["idx", "j", "pos"]), g.pick(["v", "arg", "num"]), g.pick(["fn", "op", "h"])
    late = g.chance(0.3)  # the classic surprise: every lambda sees the loop variable's last value
    bind = "" if late else f", {i}={i}"
    expr = g.choice([f"{v} + {i}", f"{v} * {i}", f"{v} - {i}", f"{i} * {i} + {v}"])
    if g.chance(0.5):
        driver = [f"{fs} = []", f"for {i} in range({g.small(2, 4)}):", f"    {fs}.append(lambda {v}{bind}: {expr})"]
    else:
        driver = [f"{fs} = []", f"for {i} in range({g.small(2, 4)}):", f"    def {f}({v}{bind}):", f"        return {expr}", f"    {fs}.append({f})"]
    res = g.pick(["results", "outs", "got"])
    arg = g.pick(["base", "start", "seed"])
    driver += [f"{res} = [{f}({arg}) for {f} in {fs}]" if g.chance(0.5) else f"{res} = []"]
    if not driver[-1].endswith("]"):
        driver += [f"for {f} in {fs}:", f"    {res}.append({f}({arg}))"]
    return Piece([], driver, [(arg, str(g.small(0, 10)))], res)


def _shared(g: ProgramRandom) -> Piece:
    maker, get, put = g.pick(["make_box", "make_cell", "holder", "make_slot"]), g.pick(["get", "read", "peek", "current"]), g.pick(["put", "write", "set_to", "store"])
    v, new = g.pick(["val", "content", "inner_value"]), g.pick(["new", "replacement", "upd"])
    defs = [[f"def {maker}({v}):", f"    def {get}():", f"        return {v}", f"    def {put}({new}):", f"        nonlocal {v}",
             f"        old = {v}", f"        {v} = {new}", "        return old", f"    return {get}, {put}"]]
    a, b = g.pick(["getter", "read_it", "g1"]), g.pick(["setter", "write_it", "s1"])
    first = g.choice([str(g.small(0, 9)), repr(word(g)), lit(ints(g, 0, 9, 1, 3))])
    driver = [f"{a}, {b} = {maker}({first})", f"before = {a}()", f"old_val = {b}({g.choice([str(g.small(0, 9)), repr(word(g))])})"]
    return Piece(defs, driver, [], f"before, old_val, {a}()")


def fam_generator(g: ProgramRandom) -> Piece:
    kind = g.choice(["simple", "next_default", "send", "yield_from", "pipeline"])
    return {"simple": _gen_simple, "next_default": _gen_next, "send": _gen_send, "yield_from": _gen_yield_from, "pipeline": _gen_pipeline}[kind](g)


def _simple_gen(g: ProgramRandom) -> tuple[list[str], str, str]:
    """A generator function over a count or a list: (lines, name, the argument it wants)."""
    kind = g.choice(["countdown", "evens", "fib", "running", "pairs", "chunks"])
    name, n, xs = g.pick(["gen", "produce", "emit", "series", "walk", "stream_of"]), g.pick(["limit", "count", "upto", "size"]), g.pick(["values", "nums", "data"])
    a, b = g.pick(["a", "cur", "num_"]), g.pick(["b", "nxt", "following"])
    if kind == "countdown":
        return [f"def {name}({n}):", f"    while {n} > 0:", f"        yield {n}", f"        {n} -= {g.small(1, 3)}"], name, str(g.small(3, 9))
    if kind == "evens":
        return [f"def {name}({n}):", f"    for {a} in range({n}):", f"        if {g.int_cond(a)}:", f"            yield {g.int_expr(a)}"], name, str(g.small(4, 10))
    if kind == "fib":
        return [f"def {name}({n}):", f"    {a}, {b} = 0, 1", f"    for _ in range({n}):", f"        yield {a}", f"        {a}, {b} = {b}, {a} + {b}"], name, str(g.small(3, 9))
    if kind == "running":
        t = g.pick(["total", "acc", "so_far"])
        return [f"def {name}({xs}):", f"    {t} = 0", f"    for {a} in {xs}:", f"        {t} += {a}", f"        yield {t}"], name, lit(some_ints(g, 1, 6))
    if kind == "pairs":
        return [f"def {name}({xs}):", f"    for {a}, {b} in zip({xs}, {xs}[1:]):", f"        yield {b} - {a}"], name, lit(some_ints(g, 2, 6))
    size = g.pick(["size", "width", "k"])
    return [f"def {name}({xs}, {size}={g.small(2, 3)}):", f"    for {a} in range(0, len({xs}), {size}):", f"        yield {xs}[{a}:{a} + {size}]"], name, lit(some_ints(g, 1, 7))


def _gen_simple(g: ProgramRandom) -> Piece:
    lines, name, arg = _simple_gen(g)
    out, v, it = g.pick(["out", "got", "collected"]), g.pick(["v", "piece_", "each"]), g.pick(["src", "arg_", "inp"])
    how = g.choice(["list", "loop", "enumerate", "sum"])
    if how == "list":
        driver, result = [f"{out} = list({name}({it}))"], out
    elif how == "loop":
        driver, result = [f"{out} = []", f"for {v} in {name}({it}):", f"    {out}.append({v})", *indent(maybe_print(g, 0.4, v))], out
    elif how == "enumerate":
        i = g.pick(["i", "idx", "pos"])
        driver, result = [f"{out} = {{}}", f"for {i}, {v} in enumerate({name}({it})):", f"    {out}[{i}] = {v}"], out
    else:
        driver, result = [f"{out} = 0", f"for {v} in {name}({it}):", f"    {out} += {v} if isinstance({v}, int) else len({v})"], out
    return Piece([lines], driver, [(it, arg)], result)


def _gen_next(g: ProgramRandom) -> Piece:
    lines, name, arg = _simple_gen(g)
    it, a, b, rest = g.pick(["it", "gen_", "source", "feed"]), g.pick(["first", "a1", "head"]), g.pick(["second", "a2", "then"]), g.pick(["rest", "remaining", "tail"])
    default = g.choice(["None", "-1", "'done'", "0"])
    driver = [f"{it} = {name}({arg})", f"{a} = next({it}, {default})", f"{b} = next({it}, {default})", f"{rest} = list({it})",
              f"last = next({it}, {default})", *maybe_print(g, 0.4, a, b, rest)]
    return Piece([lines], driver, [], f"{a}, {b}, {rest}, last")


def _gen_send(g: ProgramRandom) -> Piece:
    name, total, count, v, avg = g.pick(["averager", "running_total", "tally", "coach", "meter"]), g.pick(["total", "acc", "sum_"]), g.pick(["count", "n_seen", "num"]), g.pick(["v", "got", "received"]), g.pick(["avg", "state", "report"])
    upd = g.choice([f"{total} / {count}", f"{total}", f"({total}, {count})", f"{total} // {count}"])
    lines = [f"def {name}():", f"    {total} = 0", f"    {count} = 0", f"    {avg} = None", "    while True:", f"        {v} = yield {avg}",
             f"        {total} += {v}", f"        {count} += 1", f"        {avg} = {upd}"]
    co, xs, x, out = g.pick(["co", "g1", "acc", "meter_"]), g.pick(["values", "readings", "scores"]), g.pick(["q", "el", "num_"]), g.pick(["answers", "outs", "trail"])
    driver = [f"{co} = {name}()", f"next({co})", f"{out} = []", f"for {x} in {xs}:", f"    {out}.append({co}.send({x}))", *indent(maybe_print(g, 0.3, x, f"{out}[-1]"))]
    if g.chance(0.3):
        driver.append(f"{co}.close()")
    return Piece([lines], driver, [(xs, lit(ints(g, -5, 20, 1, 5)))], out)


def _gen_yield_from(g: ProgramRandom) -> Piece:
    name, xs, x = g.pick(["flatten", "walk", "leaves", "iter_all", "unpack"]), g.pick(["nested", "items", "tree", "data"]), g.pick(["el", "part", "sub"])
    if g.chance(0.6):
        lines = [f"def {name}({xs}):", f"    for {x} in {xs}:", f"        if isinstance({x}, list):", f"            yield from {name}({x})", "        else:", f"            yield {x}"]
        nested = [g.small(0, 9), [g.small(0, 9), [g.small(0, 9)]], g.small(0, 9)] if g.chance(0.5) else [[g.small(0, 9), g.small(0, 9)], [], [[g.small(0, 9)]]]
        return Piece([lines], maybe_print(g, 0.3, f"list({name}({xs}))"), [(xs, lit(nested))], g.choice([f"list({name}({xs}))", f"sum({name}({xs}))"]))
    inner, a, b = g.pick(["part_one", "head_part", "prefix_items"]), g.pick(["left", "front", "first_"]), g.pick(["right", "back", "second_"])
    lines = [[f"def {inner}({a}):", f"    for {x} in {a}:", f"        yield {x} * 2"],
             [f"def {name}({a}, {b}):", f"    yield from {inner}({a})", f"    yield {g.choice(['0', '-1', repr('|')])}", f"    yield from {b}"]]
    return Piece(lines, [], [(a, lit(ints(g, 0, 9, 1, 3))), (b, lit(words(g, 1, 3)))], f"list({name}({a}, {b}))")


def _gen_pipeline(g: ProgramRandom) -> Piece:
    src, keep, scale = g.pick(["read", "source", "numbers", "produce"]), g.pick(["keep", "only", "select", "filtered"]), g.pick(["scale", "transform", "mapped", "adjust"])
    xs, x, it, k = g.pick(["values", "raw", "inputs"]), g.pick(["v", "el", "num"]), g.pick(["stream", "items_", "seq"]), g.pick(["k", "factor", "by"])
    pairs = g.chance(0.25)
    made = f"({x}, {x} * {k})" if pairs else g.choice([f"{x} * {k}", f"{x} + {k}", f"{x} - {k}"])
    defs = [[f"def {src}({xs}):", f"    for {x} in {xs}:", *indent(maybe_print(g, 0.3, repr("read"), x), 2), f"        yield {x}"],
            [f"def {keep}({it}):", f"    for {x} in {it}:", f"        if {g.int_cond(x)}:", f"            yield {x}"],
            [f"def {scale}({it}, {k}):", f"    for {x} in {it}:", f"        yield {made}"]]
    pipe = f"{scale}({keep}({src}({xs})), {g.small(2, 5)})"
    consume = g.choice([f"list({pipe})", f"max({pipe}, default=None)", f"[p for p in {pipe}]"] + ([] if pairs else [f"sum({pipe})"]))
    return Piece(defs, [], [(xs, lit(some_ints(g, 2, 7)))], consume)


def fam_genexpr(g: ProgramRandom) -> Piece:
    """Generator expressions consumed by sum, max, any, all, list, join, sorted."""
    xs, ws, x, w = g.pick(["nums", "values", "data", "scores"]), g.pick(["words", "names", "tokens"]), g.pick(["v", "num", "el"]), g.pick(["wd", "tok", "nm"])
    # each expression with names a person might give its value
    pool = [
        (f"sum({g.int_expr(x)} for {x} in {xs} if {g.int_cond(x)})", ["total", "picked_sum", "score"]),
        (f"max(({g.int_expr(x)} for {x} in {xs}), default=0)", ["biggest", "top", "peak"]),
        (f"any({g.int_cond(x)} for {x} in {xs})", ["found", "has_any", "some"]),
        (f"all({g.int_cond(x)} for {x} in {xs})", ["every", "all_ok", "valid"]),
        (f"list({g.int_expr(x)} for {x} in {xs})", ["mapped", "changed", "converted"]),
        (f"min((abs({x}) for {x} in {xs}), default=None)", ["smallest", "nearest", "low"]),
        (f"sorted(({x} % {g.small(2, 5)}, {x}) for {x} in {xs})", ["pairs", "keyed", "ordered"]),
        (f"sum(1 for {x} in {xs} if {g.int_cond(x)})", ["hits", "how_many", "matches"]),
        (f"tuple({x} for {x} in {xs} if {x} not in ({g.small(0, 4)}, {g.small(5, 9)}))", ["kept", "rest", "remaining"]),
        (f"'-'.join(str({x}) for {x} in {xs})", ["joined", "line", "label"]),
        (f"sum(len({w}) for {w} in {ws})", ["letters", "length", "chars"]),
        (f"any({g.word_cond(w)} for {w} in {ws})", ["has_match", "any_hit", "flag"]),
        (f"' '.join({w}.upper() for {w} in {ws} if {g.word_cond(w)})", ["shout", "loud", "caps"]),
        (f"max(({w} for {w} in {ws}), key=len, default='')", ["longest", "widest", "big_word"]),
        (f"dict(({w}, len({w})) for {w} in {ws})", ["sizes", "lengths", "by_word"]),
        (f"next(({w} for {w} in {ws} if {g.word_cond(w)}), None)", ["first_hit", "first_match", "hit"]),
    ]  # fmt: skip
    chosen = g.rng.sample(pool, g.small(2, 3))
    picked = [e for e, _ in chosen]
    names = [g.pick(ns) for _, ns in chosen]
    driver = [f"{n} = {e}" for n, e in zip(names, picked)] + maybe_print(g, 0.3, names[0])
    inputs = [(xs, lit(some_ints(g, 0, 7)))] if any(f" in {xs}" in e for e in picked) else []
    inputs += [(ws, lit(words(g, 0, 5)))] if any(f" in {ws}" in e for e in picked) else []
    return Piece([], driver, inputs, ", ".join(names))


ERROR_NAMES = ["ValidationError", "ParseError", "LimitError", "EmptyError", "NotFoundError", "TooBigError", "BadInputError", "StockError", "RangeError"]


def _error_class(g: ProgramRandom, pool: list[str] = ERROR_NAMES, base: str = "Exception") -> tuple[str, list[str], str]:
    """(name, class lines, the attribute that keeps the bad value or "")."""
    name = class_name(g, pool, "Error")
    if g.chance(0.4):
        v = g.pick(["bad_value", "culprit", "offender", "got"])
        body = method("__init__", ["self", v], [f"super().__init__(f'{name.removesuffix('Error').lower() or 'bad'}: {{{v}}}')", f"self.{v} = {v}"])
        return name, [f"class {name}({base}):", *body], v
    return name, [f"class {name}({base}):", "    pass"], ""


def fam_exceptions(g: ProgramRandom) -> Piece:
    kind = g.choice(["custom", "finally", "else", "reraise", "hierarchy"])
    return {"custom": _exc_custom, "finally": _exc_finally, "else": _exc_else, "reraise": _exc_reraise, "hierarchy": _exc_hierarchy}[kind](g)


def _exc_custom(g: ProgramRandom) -> Piece:
    err, err_def, attr = _error_class(g)
    chk, v = g.pick(["check", "validate", "ensure", "inspect_value", "guard"]), g.pick(["v", "num", "amount"])
    bad = g.choice([f"{v} > {g.small(8, 15)}", f"{v} < 0", f"{v} % {g.small(3, 5)} == 0"])
    defs = [err_def, [f"def {chk}({v}):", f"    if {bad}:", f"        raise {err}({v})", f"    return {g.int_expr(v)}"]]
    call = chk
    if g.chance(0.4):  # one more frame between the raise and the handler
        mid = g.pick(["process", "handle", "step", "convert"])
        defs.append([f"def {mid}({v}):", f"    r = {chk}({v})", f"    return r + {g.small(1, 5)}"])
        call = mid
    xs, x, ok, bad_ = g.pick(["values", "inputs", "readings"]), g.pick(["el", "num_", "q"]), g.pick(["ok", "good", "kept"]), g.pick(["bad", "rejected", "errors"])
    caught = f"e.{attr}" if attr and g.chance(0.6) else g.choice(["str(e)", x])
    driver = [f"{ok} = []", f"{bad_} = []", f"for {x} in {xs}:", "    try:", f"        {ok}.append({call}({x}))", f"    except {err} as e:",
              f"        {bad_}.append({caught})", *indent(maybe_print(g, 0.3, repr("rejected"), x), 2)]
    return Piece(defs, driver, [(xs, lit(ints(g, -3, 20, 2, 6)))], f"{ok}, {bad_}")


def _exc_finally(g: ProgramRandom) -> Piece:
    fn, v, log = g.pick(["divide", "safe_step", "attempt", "compute"]), g.pick(["v", "d", "den"]), g.pick(["log", "trail", "events", "notes"])
    k = g.small(10, 60)
    body = [f"def {fn}({v}, {log}):", f"    {log}.append('start')", "    try:"]
    if g.chance(0.5):
        body += [f"        if {v} < 0:", "            return 'negative'"]
    body += [f"        return {k} // {v}", "    finally:", f"        {log}.append('done')"]
    xs, x, res = g.pick(["dens", "values", "inputs"]), g.pick(["el", "q", "num"]), g.pick(["results", "answers", "outs"])
    driver = [f"{log} = []", f"{res} = []", f"for {x} in {xs}:", "    try:", f"        {res}.append({fn}({x}, {log}))",
              "    except ZeroDivisionError:", f"        {res}.append(None)", f"        {log}.append('caught')"]
    vals = ints(g, -3, 9, 2, 4) + [0]
    g.rng.shuffle(vals)
    return Piece([body], driver, [(xs, lit(vals))], f"{res}, {log}")


def _exc_else(g: ProgramRandom) -> Piece:
    fn, items, t, n = g.pick(["parse_all", "to_numbers", "convert", "read_ints"]), g.pick(["items", "tokens", "raw"]), g.pick(["tok", "piece", "el"]), g.pick(["num", "val", "parsed"])
    nums, bad = g.pick(["nums", "good", "ok"]), g.pick(["bad", "skipped", "errors"])
    body = [f"def {fn}({items}):", f"    {nums} = []", f"    {bad} = 0", f"    for {t} in {items}:", "        try:", f"            {n} = int({t})",
            "        except ValueError:", f"            {bad} += 1", *indent(maybe_print(g, 0.3, repr("skip"), t), 3), "        else:", f"            {nums}.append({n})"]
    if g.chance(0.3):
        body += ["        finally:", f"            print('checked', {t})"]
    body += [f"    return {nums}, {bad}"]
    vals = [str(v) for v in ints(g, -9, 99, 1, 3)] + words(g, 1, 3)
    g.rng.shuffle(vals)
    if g.chance(0.6):
        return Piece([body], direct=f"{fn}({lit(vals)})")
    xs, r = g.pick(["inputs", "lines", "fields"]), g.pick(["parsed_", "res", "outcome"])
    return Piece([body], [f"{r} = {fn}({xs})"], [(xs, lit(vals))], r)


def _exc_reraise(g: ProgramRandom) -> Piece:
    fn, d, key = g.pick(["load", "lookup", "fetch", "get_value"]), g.pick(["table", "data", "prices", "stock"]), g.pick(["key", "name", "wanted"])
    style = g.choice(["bare", "from", "from_none"])
    outer = "KeyError"
    handler = ["    except KeyError:" if style != "from" else "    except KeyError as e:"]
    handler += indent(maybe_print(g, 0.5, repr("missing"), key), 2)
    if style == "bare":
        handler.append("        raise")
    else:
        err, err_def, _ = _error_class(g, ["LookupFailed", "MissingError", "UnknownKey", "NotFoundError"], "Exception")
        outer = err
        handler.append(f"        raise {err}({key}) from {'e' if style == 'from' else 'None'}")
    defs = ([err_def] if style != "bare" else []) + [[f"def {fn}({d}, {key}):", "    try:", f"        return {d}[{key}] * {g.small(1, 3)}", *handler]]
    keys, k, res = g.pick(["keys", "wanted_keys", "queries"]), g.pick(["kk", "q", "name_"]), g.pick(["results", "found", "outs"])
    driver = [f"{res} = []", f"for {k} in {keys}:", "    try:", f"        {res}.append({fn}({d}, {k}))", f"    except {outer} as e:",
              f"        {res}.append({g.choice(['None', 'repr(e)', 'type(e).__name__', '-1'])})"]
    ws = words(g, 2, 4)
    table = {w: g.small(1, 20) for w in ws}
    asked = g.rng.sample(ws, g.small(1, len(ws))) + words(g, 1, 2)
    g.rng.shuffle(asked)
    return Piece(defs, driver, [(d, lit(table)), (keys, lit(asked))], res)


def _exc_hierarchy(g: ProgramRandom) -> Piece:
    base = class_name(g, ["AppError", "ShopError", "GameError", "StoreError", "QueueError"], "Error")
    a, b = class_name(g, ["NotFound", "MissingItem", "NoSuchThing"], "Error"), class_name(g, ["Invalid", "BadRequest", "Rejected"], "Error")
    fn, items, i = g.pick(["fetch", "pick_item", "take_at", "get_at"]), g.pick(["items", "shelf", "slots"]), g.pick(["idx", "pos", "where"])
    defs = [[f"class {base}(Exception):", "    pass"], [f"class {a}({base}):", "    pass"], [f"class {b}({base}):", "    pass"],
            [f"def {fn}({items}, {i}):", f"    if {i} < 0:", f"        raise {b}(f'bad index {{{i}}}')", f"    if {i} >= len({items}):",
             f"        raise {a}({i})", f"    return {items}[{i}]"]]
    idxs, j, out = g.pick(["wanted", "indexes", "picks"]), g.pick(["jj", "n_", "at"]), g.pick(["out", "got", "taken"])
    driver = [f"{out} = []", f"for {j} in {idxs}:", "    try:", f"        {out}.append({fn}({items}, {j}))", f"    except {a}:",
              f"        {out}.append('missing')", f"    except {base} as e:", f"        {out}.append({g.choice(['type(e).__name__', 'str(e)'])})"]
    vals = words(g, 2, 4)
    return Piece(defs, driver, [(items, lit(vals)), (idxs, lit(ints(g, -2, len(vals) + 1, 2, 5)))], out)


def fam_decorator(g: ProgramRandom) -> Piece:
    kind = g.choice(["count", "log", "cache", "with_args", "guard"])
    use_wraps = g.chance(0.3)
    deco_inner = g.pick(["inner", "wrapped", "call_it"]) if g.chance(0.3) else "wrapper"
    head = ["import functools"] if use_wraps else []
    wraps = ["    @functools.wraps(func)"] if use_wraps else []
    v = g.pick(["v", "num", "arg"])
    fname = g.pick(["square", "shout", "area", "score", "halve", "bump"])
    body_expr = g.choice([f"{v} * {v}", f"{v} + {g.small(1, 9)}", f"{v} * {g.small(2, 5)} - 1", f"{v} // 2"])
    target = [f"def {fname}({v}):", f"    return {body_expr}"]
    xs, x, out = g.pick(["values", "inputs", "nums"]), g.pick(["el", "q", "num_"]), g.pick(["outs", "got", "results"])
    loop = [f"{out} = []", f"for {x} in {xs}:", f"    {out}.append({fname}({x}))"]
    inputs = [(xs, lit(ints(g, -4, 12, 2, 5)))]
    if kind == "count":
        deco, calls = g.pick(["count_calls", "counted", "tally_calls"]), g.pick(["calls", "hits", "n_calls"])
        d = [f"def {deco}(func):", *wraps, f"    def {deco_inner}(*args):", f"        {deco_inner}.{calls} += 1", "        return func(*args)",
             f"    {deco_inner}.{calls} = 0", f"    return {deco_inner}"]
        return Piece([*([head] if head else []), d, [f"@{deco}", *target]], loop + [f"{fname}({g.small(0, 5)})"], inputs, f"{out}, {fname}.{calls}")
    if kind == "log":
        deco = g.pick(["logged", "trace_calls", "verbose", "announce"])
        d = [f"def {deco}(func):", *wraps, f"    def {deco_inner}(*args):", "        print('calling', func.__name__, args)", "        result = func(*args)",
             "        print(func.__name__, 'returned', result)", "        return result", f"    return {deco_inner}"]
        a, b = g.pick(["a", "left", "p1"]), g.pick(["b", "right", "p2"])
        two = [f"def {fname}({a}, {b}):", f"    return {g.choice([f'{a} + {b}', f'{a} * {b}', f'max({a}, {b}) - min({a}, {b})'])}"]
        driver = [f"{out} = {fname}({g.small(0, 9)}, {g.small(0, 9)})", f"{out} = {fname}({out}, {g.small(1, 5)})"]
        return Piece([*([head] if head else []), d, [f"@{deco}", *two]], driver, [], out)
    if kind == "cache":
        deco, n = g.pick(["memo", "cached", "remember", "memoize"]), g.pick(["num", "m", "steps"])
        d = [f"def {deco}(func):", "    cache = {}", *wraps, f"    def {deco_inner}({n}):", f"        if {n} not in cache:", f"            cache[{n}] = func({n})",
             f"        return cache[{n}]", f"    return {deco_inner}"]
        rec = g.pick(["fib", "ways", "stairs", "paths"])
        step = g.choice([f"{rec}({n} - 1) + {rec}({n} - 2)", f"{rec}({n} - 1) + {rec}({n} - 2) + 1", f"2 * {rec}({n} - 1) - {rec}({n} - 2)"])
        target = [f"@{deco}", f"def {rec}({n}):", f"    if {n} < 2:", f"        return {g.choice([n, '1'])}", f"    return {step}"]
        return Piece([*([head] if head else []), d, target], [], [], "", direct=f"{rec}({g.small(5, 18)})")
    if kind == "with_args":
        deco, lo, hi = g.pick(["clamp", "bounded", "limit_to"]), g.pick(["lo", "low", "floor_"]), g.pick(["hi", "high", "ceil_"])
        d = [f"def {deco}({lo}, {hi}):", "    def deco(func):", *indent(wraps), f"        def {deco_inner}(*args):", "            r = func(*args)",
             f"            return max({lo}, min({hi}, r))", f"        return {deco_inner}", "    return deco"]
        return Piece([*([head] if head else []), d, [f"@{deco}({g.small(0, 3)}, {g.small(5, 15)})", *target]], loop, inputs, out)
    deco = g.pick(["non_negative", "checked", "only_positive", "guarded"])
    d = [f"def {deco}(func):", *wraps, f"    def {deco_inner}({v}):", f"        if {v} < 0:", f"            return {g.choice(['None', '0', repr('skipped')])}",
         f"        return func({v})", f"    return {deco_inner}"]
    return Piece([*([head] if head else []), d, [f"@{deco}", *target]], loop, inputs, out)


def fam_context(g: ProgramRandom) -> Piece:
    kind = g.choice(["class", "class", "contextmanager", "resource"])
    return {"class": _ctx_class, "contextmanager": _ctx_generator, "resource": _ctx_resource}[kind](g)


def _ctx_class(g: ProgramRandom) -> Piece:
    cls = class_name(g, ["Tracker", "Section", "Scope", "Step", "Block", "Stage", "Guard"])
    name, log = g.pick(["name", "label", "title"]), g.pick(["log", "trail", "events", "lines"])
    suppress = g.chance(0.5)
    exit_ret = [f"return exc_type is {g.choice(['ValueError', 'ZeroDivisionError', 'KeyError'])}"] if suppress else (["return False"] if g.chance(0.5) else [])
    methods = [method("__init__", ["self", name, log], [f"self.{name} = {name}", f"self.{log} = {log}"]),
               method("__enter__", ["self"], [f"self.{log}.append('enter ' + self.{name})", "return self"]),
               method("__exit__", ["self", "exc_type", "exc", "tb"], [f"self.{log}.append('exit ' + self.{name})", *exit_ret])]
    lg, t = g.pick(["log", "history", "record_", "seen"]), g.pick(["t", "ctx", "sec", "outer"])
    a, b = word(g), word(g)
    driver = [f"{lg} = []", f"with {cls}({a!r}, {lg}) as {t}:", f"    {lg}.append({g.choice(['len(' + lg + ')', t + '.' + name + '.upper()', repr('work')])})"]
    if g.chance(0.5):
        driver += [f"    with {cls}({b!r}, {lg}):", f"        {lg}.append({g.small(0, 9)})"]
    if suppress:
        bad = g.choice(["int('x')", f"{g.small(1, 9)} // 0", "{}['missing']"])
        guard = ["try:", f"    with {cls}({word(g)!r}, {lg}):", f"        {lg}.append({bad})", f"        {lg}.append('not reached')",
                 "except Exception as e:", f"    {lg}.append(type(e).__name__)"]
        driver += guard
    driver += maybe_print(g, 0.4, lg)
    return Piece([klass(cls, methods)], driver, [], lg)


def _ctx_generator(g: ProgramRandom) -> Piece:
    fn, name, out = g.pick(["tag", "section", "wrapped", "block", "bracket"]), g.pick(["name", "label", "kind"]), g.pick(["out", "parts", "buf", "lines"])
    style = g.choice(["html", "depth"])
    if style == "html":
        body = [f"    {out}.append(f'<{{{name}}}>')", "    try:", f"        yield len({out})", "    finally:", f"        {out}.append(f'</{{{name}}}>')"]
    else:
        body = [f"    {out}.append('begin ' + {name})", f"    yield {name}.upper()", f"    {out}.append('end ' + {name})"]
    defs = [["from contextlib import contextmanager"], ["@contextmanager", f"def {fn}({name}, {out}):", *body]]
    o, a, b = g.pick(["doc", "result_parts", "acc"]), g.pick(["n1", "got", "inner_val"]), g.pick(["n2", "got2", "deeper"])
    driver = [f"{o} = []", f"with {fn}({word(g)!r}, {o}) as {a}:", f"    {o}.append({g.choice([repr(word(g)), f'str({a})'])})"]
    if g.chance(0.6):
        driver += [f"    with {fn}({word(g)!r}, {o}) as {b}:", f"        {o}.append(str({b}))"]
    driver += maybe_print(g, 0.4, f"''.join({o})" if style == "html" else o)
    return Piece(defs, driver, [], o)


def _ctx_resource(g: ProgramRandom) -> Piece:
    cls = class_name(g, ["Connection", "Door", "Session", "Valve", "Gate", "Channel", "Lock"])
    is_open, uses, use = g.pick(["is_open", "active", "opened", "live"]), g.pick(["uses", "count", "calls"]), g.pick(["send", "use", "push", "run"])
    v = g.pick(["v", "payload", "msg"])
    methods = [method("__init__", ["self"], [f"self.{is_open} = False", f"self.{uses} = 0"]),
               method("__enter__", ["self"], [f"self.{is_open} = True", "return self"]),
               method("__exit__", ["self", "exc_type", "exc", "tb"], [f"self.{is_open} = False"] + maybe_print(g, 0.4, repr("closed after"), f"self.{uses}")),
               method(use, ["self", v], [f"if not self.{is_open}:", f"    raise RuntimeError('{cls.lower()} is closed')", f"self.{uses} += 1",
                                         f"return {g.choice([f'{v} * 2', f'str({v})', f'-{v}'])}"])]
    c, xs, x, out = g.pick(["conn", "door", "res_", "chan"]), g.pick(["values", "msgs", "batch"]), g.pick(["el", "q", "item_"]), g.pick(["outs", "sent", "got"])
    driver = [f"{c} = {cls}()", f"{out} = []", f"with {c}:", f"    for {x} in {xs}:", f"        {out}.append({c}.{use}({x}))", "try:",
              f"    {c}.{use}({g.small(0, 9)})", "except RuntimeError as e:", f"    {out}.append(str(e))"]
    return Piece([klass(cls, methods)], driver, [(xs, lit(ints(g, 0, 20, 1, 4)))], f"{out}, {c}.{is_open}, {c}.{uses}")


def fam_lambda(g: ProgramRandom) -> Piece:
    """Lambdas as sort keys, in map/filter/max/min/reduce, and in a dispatch table."""
    if g.chance(0.25):
        return _dispatch(g)
    xs, ws, x, w, k = g.pick(["nums", "values", "data"]), g.pick(["words", "names", "tags"]), g.pick(["v", "num", "el"]), g.pick(["wd", "nm", "tok"]), g.small(2, 5)
    pool = [
        (f"sorted({ws}, key=lambda {w}: (len({w}), {w}))", ["by_length", "ordered", "ranked"]),
        (f"sorted({ws}, key=lambda {w}: {w}[-1]{', reverse=True' if g.chance(0.4) else ''})", ["by_last", "ordered", "sorted_words"]),
        (f"list(map(lambda {x}: {g.int_expr(x)}, {xs}))", ["mapped", "changed", "converted"]),
        (f"list(filter(lambda {x}: {g.int_cond(x)}, {xs}))", ["kept", "chosen", "filtered"]),
        (f"max({ws}, key=lambda {w}: {w}.count({g.choice(list('aeiou'))!r}), default=None)", ["best", "most", "winner"]),
        (f"min({xs}, key=lambda {x}: abs({x} - {k}), default=None)", ["closest", "nearest", "near"]),
        (f"sorted({xs}, key=lambda {x}: ({x} % {k}, -{x}))", ["grouped", "ordered", "arranged"]),
        (f"list(map(lambda {w}: {w}[:{k}], {ws}))", ["short", "prefixes", "heads"]),
        (f"sorted(enumerate({xs}), key=lambda p: p[1], reverse=True)", ["ranked", "by_value", "pairs_"]),
        (f"reduce(lambda acc, {x}: acc + {g.int_expr(x)}, {xs}, 0)", ["folded", "total", "combined"]),
        (f"list(map(lambda a, b: a * b, {xs}, {xs}[1:]))", ["products", "neighbours", "steps"]),
        (f"[{w} for {w} in sorted({ws}, key=str.lower)]", ["alpha", "ordered", "listing"]),
    ]  # fmt: skip
    chosen = g.rng.sample(pool, g.small(2, 3))
    picked = [e for e, _ in chosen]
    names = [g.pick(ns) for _, ns in chosen]
    driver = [f"{n} = {e}" for n, e in zip(names, picked)] + maybe_print(g, 0.3, names[-1])
    defs = [["from functools import reduce"]] if any(e.startswith("reduce(") for e in picked) else []
    inputs = [(xs, lit(some_ints(g, 0, 7)))] if any(xs in e for e in picked) else []
    inputs += [(ws, lit(words(g, 0, 5)))] if any(ws in e for e in picked) else []
    return Piece(defs, driver, inputs, ", ".join(names))


def _dispatch(g: ProgramRandom) -> Piece:
    ops, steps, name, a, b = g.pick(["ops", "table", "actions", "handlers"]), g.pick(["steps", "program", "commands"]), g.pick(["op", "cmd", "verb"]), g.pick(["a", "lhs", "p1"]), g.pick(["b", "rhs", "p2"])
    table = {"add": f"{a} + {b}", "sub": f"{a} - {b}", "mul": f"{a} * {b}", "max": f"max({a}, {b})", "mod": f"{a} % {b} if {b} else 0", "cat": f"int(str({a}) + str({b}))"}
    keys = g.rng.sample(list(table), g.small(2, 4))
    acc, res = g.pick(["acc", "value_", "running"]), g.pick(["history", "trail", "seen"])
    driver = [f"{ops} = {{", *[f"    {kk!r}: lambda {a}, {b}: {table[kk]}," for kk in keys], "}", f"{acc} = {g.small(0, 9)}", f"{res} = []",
              f"for {name}, {b} in {steps}:", f"    {acc} = {ops}[{name}]({acc}, {b})", f"    {res}.append({acc})"]
    prog = [(g.choice(keys), g.small(0, 9)) for _ in range(g.small(2, 5))]
    return Piece([], driver, [(steps, lit(prog))], f"{acc}, {res}")


FLOW_FAMILIES = {
    "closure": fam_closure, "generator": fam_generator, "genexpr": fam_genexpr, "exceptions": fam_exceptions,
    "decorator": fam_decorator, "context_manager": fam_context, "lambda": fam_lambda,
}  # fmt: skip
