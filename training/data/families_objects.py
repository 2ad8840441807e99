"""Families of programs with classes: containers, accounts, inheritance, properties, dunder
methods, class attributes with static and class methods, linked lists, trees, and objects that
act on each other. Every name comes from a pool or the wide pool, so the model meets many.
"""

from __future__ import annotations

from .families_common import (
    Piece, class_name, indent, ints, klass, lit, maybe_print, method, some_ints, word, words,
)
from .generator import ProgramRandom


def fam_container(g: ProgramRandom) -> Piece:
    """A stack or queue class and a loop that pushes and pops."""
    stack = g.chance(0.5)
    cls = class_name(g, ["Stack", "Queue", "Buffer", "Pile", "History", "Bag", "Tray", "Line", "Backlog"])
    attr = g.pick(["items", "data", "elements", "contents", "store", "entries", "slots"])
    elem = g.pick(["elem", "thing", "entry", "val", "obj", "piece"])
    push = g.pick(["push", "add", "put", "append", "insert", "enqueue", "feed"])
    pop = g.pick(["pop", "take", "remove", "get", "dequeue", "pull", "next_one"])
    empty = g.pick(["is_empty", "empty", "has_none", "is_clear"])
    cap = g.pick(["capacity", "limit", "max_size", "room"]) if g.chance(0.3) else ""
    idx = "-1" if stack else "0"
    init = [f"self.{attr} = []"] + ([f"self.{cap} = {cap}"] if cap else [])
    push_body = [f"self.{attr}.append({elem})"]
    if cap:
        push_body = [f"if len(self.{attr}) >= self.{cap}:", "    return False", *push_body, "return True"]
    methods = [
        method("__init__", ["self"] + ([cap] if cap else []), init),
        method(push, ["self", elem], push_body),
        method(pop, ["self"], [f"return self.{attr}.pop({'' if stack and g.chance(0.7) else idx})"]),
        method(empty, ["self"], [g.choice([f"return not self.{attr}", f"return len(self.{attr}) == 0"])]),
    ]
    peek = ""
    if g.chance(0.5):
        peek = g.pick(["peek", "top", "front", "first", "look"])
        methods.append(method(peek, ["self"], [f"return self.{attr}[{idx}]"]))
    use_len = g.chance(0.5)
    if use_len:
        methods.append(method("__len__", ["self"], [f"return len(self.{attr})"]))
    xs, v, obj, got = g.pick(["values", "nums", "incoming", "arrivals", "data"]), g.pick(["v", "num", "x"]), g.pick(["s", "q", "box", "buf"]), g.pick(["popped", "taken", "served", "out"])
    size = f"len({obj})" if use_len else f"len({obj}.{attr})"
    driver = [f"{obj} = {cls}({g.small(2, 4) if cap else ''})", f"{got} = []"]
    if g.chance(0.5):
        driver += [f"for {v} in {xs}:", f"    if {g.int_cond(v)}:", f"        {obj}.{push}({v})",
                   f"    elif not {obj}.{empty}():", f"        {got}.append({obj}.{pop}())",
                   *indent(maybe_print(g, 0.3, repr(v), v, size))]
    else:
        driver += [f"for {v} in {xs}:", f"    {obj}.{push}({v})", f"while not {obj}.{empty}():",
                   f"    {got}.append({obj}.{pop}())", *indent(maybe_print(g, 0.3, got))]
    result = g.choice([f"{got}, {obj}.{attr}", got, f"{got}, {size}"])
    if peek:
        result += f", {obj}.{peek}() if not {obj}.{empty}() else None"
    return Piece([klass(cls, methods)], driver, [(xs, lit(some_ints(g, 2, 7)))], result)


def fam_account(g: ProgramRandom) -> Piece:
    """Objects holding an amount that act on each other (a transfer), with a check that fails."""
    cls = class_name(g, ["Account", "Wallet", "Budget", "Tank", "Player", "Battery", "Jar", "Bank", "Card", "Meter"])
    amt = g.pick(["balance", "amount", "level", "points", "funds", "charge", "credit"])
    owner = g.pick(["owner", "name", "label", "title", "holder"])
    hist = g.pick(["history", "log", "moves", "records", "changes"]) if g.chance(0.6) else ""
    add, take = g.pick(["deposit", "add", "fill", "gain", "top_up", "earn"]), g.pick(["withdraw", "take", "spend", "drain", "use", "pay"])
    give = g.pick(["transfer", "give", "send", "move_to", "share"])
    q = g.pick(["qty", "delta", "units", "how_much", "sum_"])
    raising = g.chance(0.45)
    exc = g.choice(["ValueError", "RuntimeError"])
    default = g.choice(["0", "0", str(g.small(1, 10))])
    init = [f"self.{owner} = {owner}", f"self.{amt} = {amt}"] + ([f"self.{hist} = []"] if hist else [])
    add_body = [f"self.{amt} += {q}"] + ([f"self.{hist}.append({q})"] if hist else [])
    fail = [f"    raise {exc}(f'{{self.{owner}}} has only {{self.{amt}}}')"] if raising else ["    return False"]
    take_body = [f"if {q} > self.{amt}:", *fail, f"self.{amt} -= {q}"] + ([f"self.{hist}.append(-{q})"] if hist else [])
    take_body += [] if raising else ["return True"]
    if raising:
        give_body = [f"self.{take}({q})", f"other.{add}({q})"]
    else:
        give_body = [f"if self.{take}({q}):", f"    other.{add}({q})", "    return True", "return False"]
    methods = [method("__init__", ["self", owner, f"{amt}={default}"], init), method(add, ["self", q], add_body),
               method(take, ["self", q], take_body), method(give, ["self", "other", q], give_body)]
    a, b = g.pick(["a", "first", "mine", "left", "src"]), g.pick(["b", "second", "yours", "right", "dst"])
    qs, x, fails = g.pick(["amounts", "moves", "requests", "orders"]), g.pick(["m", "req", "amt_"]), g.pick(["fails", "refused", "errors", "misses"])
    driver = [f"{a} = {cls}({word(g)!r}, {g.small(5, 40)})", f"{b} = {cls}({word(g)!r})", f"{fails} = 0", f"for {x} in {qs}:"]
    if raising:
        show = g.chance(0.5)
        driver += ["    try:", f"        {a}.{give}({b}, {x})", f"    except {exc}{' as e' if show else ''}:", f"        {fails} += 1"]
        driver += ["        print(e)"] if show else []
    else:
        driver += [f"    if not {a}.{give}({b}, {x}):", f"        {fails} += 1"]
    driver += maybe_print(g, 0.3, f"{a}.{owner}", f"{a}.{amt}")
    if g.chance(0.5):
        driver.append(f"{b}.{add}({g.small(1, 9)})")
    result = g.choice([f"{a}.{amt}, {b}.{amt}, {fails}", f"{b}.{hist}" if hist else f"{b}.{amt}", f"{fails}, {a}.{amt}"])
    return Piece([klass(cls, methods)], driver, [(qs, lit(ints(g, 1, 25, 2, 6)))], result)


INHERIT_THEMES = [
    ("Shape", ["Square", "Circle", "Rect"]), ("Animal", ["Dog", "Cat", "Bird"]), ("Employee", ["Manager", "Intern"]),
    ("Vehicle", ["Truck", "Bike", "Car"]), ("Item", ["Book", "Toy", "Tool"]), ("Person", ["Student", "Teacher"]),
    ("Character", ["Wizard", "Knight"]), ("Base", ["Derived", "Child"]), ("Widget", ["Button", "Slider"]),
    ("Plan", ["Premium", "Basic"]), ("Unit", ["Archer", "Healer"]),
]  # fmt: skip


def fam_inherit(g: ProgramRandom) -> Piece:
    """A base class, a subclass that calls ``super().__init__`` and extends a method, sometimes a
    second subclass that overrides it, and a loop over a mixed list."""
    base, subs = g.choice(INHERIT_THEMES)
    base = class_name(g, [base])
    sub = class_name(g, subs)
    other = class_name(g, [s for s in subs if s != sub] or ["Other"]) if g.chance(0.5) else ""
    name, num, extra = g.pick(["name", "label", "title", "tag"]), g.pick(["size", "level", "speed", "weight", "cost", "power", "age"]), g.pick(["bonus", "extra", "boost", "plus", "added"])
    m = g.pick(["describe", "score", "total", "rating", "strength", "summary", "worth"])
    text = g.chance(0.4)
    k = g.small(2, 5)
    if text:
        base_m = g.choice([f"return f'{{self.{name}}} ({{self.{num}}})'", f"return self.{name} + ':' + str(self.{num})"])
        sub_m = g.choice([f"return super().{m}() + ' +' + str(self.{extra})", f"return f'{{super().{m}()}} with {{self.{extra}}}'"])
        other_m = f"return self.{name}.upper()"
    else:
        base_m = g.choice([f"return self.{num} * {k}", f"return self.{num} + len(self.{name})", f"return self.{num}"])
        sub_m = g.choice([f"return super().{m}() + self.{extra}", f"return super().{m}() * 2 + self.{extra}"])
        other_m = g.choice([f"return self.{num} - 1", f"return {k * 10}"])
    base_methods = [method("__init__", ["self", name, num], [f"self.{name} = {name}", f"self.{num} = {num}"]), method(m, ["self"], [base_m])]
    report = ""
    if g.chance(0.4):
        report = g.pick(["report", "show", "line", "as_text"])
        base_methods.append(method(report, ["self"], [f"return self.{name} + ' -> ' + str(self.{m}())"]))
    sub_init = [f"super().__init__({name}, {num})", f"self.{extra} = {extra}"] + maybe_print(g, 0.2, repr("new"), f"self.{name}")
    defs = [klass(base, base_methods), klass(sub, [method("__init__", ["self", name, num, extra], sub_init), method(m, ["self"], [sub_m])], base)]
    objs = [f"{base}({word(g)!r}, {g.small(1, 9)})", f"{sub}({word(g)!r}, {g.small(1, 9)}, {g.small(1, 9)})"]
    if other:
        defs.append(klass(other, [method(m, ["self"], [other_m])], base))
        objs.append(f"{other}({word(g)!r}, {g.small(1, 9)})")
    if g.chance(0.5):
        objs.append(f"{sub}({word(g)!r}, {g.small(1, 9)}, {g.small(1, 9)})")
    g.rng.shuffle(objs)
    lst, o, acc = g.pick(["things", "objs", "members", "crew", "zoo", "fleet"]), g.pick(["o", "thing", "member", "one"]), g.pick(["out", "results", "seen", "total"])
    call = f"{o}.{report}()" if report else f"{o}.{m}()"
    driver = [f"{lst} = [{', '.join(objs)}]"]
    if not text and not report and g.chance(0.5):
        driver += [f"{acc} = 0", f"for {o} in {lst}:", f"    {acc} += {call}"]
    else:
        driver += [f"{acc} = []", f"for {o} in {lst}:", f"    {acc}.append({call})"]
    driver += indent(maybe_print(g, 0.3, call))
    result = g.choice([acc, acc, f"{acc}, isinstance({lst}[0], {sub})", f"{acc}, type({lst}[-1]).__name__"])
    return Piece(defs, driver, [], result)


def fam_property(g: ProgramRandom) -> Piece:
    """``@property`` getters computed from attributes, and a setter that checks its value."""
    cls = class_name(g, ["Rect", "Box", "Room", "Temperature", "Range", "Order", "Tile", "Frame", "Panel"])
    a, b = g.pick(["width", "low", "price", "start", "w", "base", "rows"]), g.pick(["height", "high", "qty", "end", "h", "rate", "cols"])
    prop = g.pick(["area", "total", "span", "mean", "product", "size", "spread"])
    expr = g.choice([f"self.{a} * self.{b}", f"self.{a} + self.{b}", f"(self.{a} + self.{b}) / 2", f"self.{b} - self.{a}", f"2 * (self.{a} + self.{b})"])
    setter = g.chance(0.6)
    raising = setter and g.chance(0.4)
    methods = [method("__init__", ["self", a, b], [f"self.{a} = {a}", f"self.{b} = {b}"]),
               method(prop, ["self"], [f"return {expr}"], "property")]
    if setter:
        check = ["if value < 0:", "    raise ValueError('must not be negative')"] if raising else ["if value < 0:", "    value = 0"]
        methods += [method(a, ["self"], [f"return self._{a}"], "property"),
                    method(a, ["self", "value"], [*check, f"self._{a} = value"], f"{a}.setter")]
    obj, first, news = g.pick(["r", "shape", "obj", "thing", "t"]), g.pick(["before", "first", "old"]), g.pick(["sizes", "updates", "new_values", "changes"])
    got = f"{obj}.{prop}"
    if g.chance(0.4):
        p2 = g.pick(["is_big", "is_square", "flat", "is_wide"])
        methods.append(method(p2, ["self"], [f"return self.{prop} > {g.small(5, 30)}"], "property"))
        got += f", {obj}.{p2}"
    driver = [f"{obj} = {cls}({g.small(1, 9)}, {g.small(1, 9)})", f"{first} = {got}"]
    driver += maybe_print(g, 0.3, f"{obj}.{prop}")
    if setter:
        v = g.pick(["v", "nv", "new"])
        loop = [f"for {v} in {news}:"]
        if raising:
            loop += ["    try:", f"        {obj}.{a} = {v}", "    except ValueError as e:", "        print(e)"]
        else:
            loop += [f"    {obj}.{a} = {v}"]
        driver += loop + indent(maybe_print(g, 0.4, v, f"{obj}.{prop}"))
        return Piece([klass(cls, methods)], driver, [(news, lit(ints(g, -5, 12, 1, 4)))], f"{first}, {got}, {obj}.{a}")
    driver.append(f"{obj}.{b} = {obj}.{b} + {g.small(1, 5)}")
    return Piece([klass(cls, methods)], driver, [], f"{first}, {got}")


def fam_repr(g: ProgramRandom) -> Piece:
    """A class with its own ``__repr__`` and a few other dunders (==, <, +, len)."""
    cls = class_name(g, ["Point", "Card", "Money", "Vec", "Pair", "Score", "Coin", "Entry", "Cell", "Tag"])
    a, b = g.pick(["x", "name", "rank", "title", "key", "row"]), g.pick(["y", "count", "suit", "year", "amount", "col"])
    a_text = a in ("name", "title", "key") or g.chance(0.2)
    fmt = g.choice([f"f'{cls}({{self.{a}!r}}, {{self.{b}!r}})'", f"f'<{cls} {{self.{a}}}:{{self.{b}}}>'",
                    f"f'{cls}({a}={{self.{a}!r}}, {b}={{self.{b}}})'", f"'{cls}(' + repr(self.{a}) + ', ' + str(self.{b}) + ')'"])
    methods = [method("__init__", ["self", a, b], [f"self.{a} = {a}", f"self.{b} = {b}"]), method("__repr__", ["self"], [f"return {fmt}"])]
    extras = g.rng.sample(["eq", "lt", "add", "str"], g.small(1, 2))
    if "eq" in extras:
        methods.append(method("__eq__", ["self", "other"], [f"return self.{a} == other.{a} and self.{b} == other.{b}"]))
    if "lt" in extras:
        methods.append(method("__lt__", ["self", "other"], [f"return (self.{b}, self.{a}) < (other.{b}, other.{a})"]))
    if "add" in extras:
        first = f"self.{a} + other.{a}" if not a_text else f"self.{a}"
        methods.append(method("__add__", ["self", "other"], [f"return {cls}({first}, self.{b} + other.{b})"]))
    if "str" in extras:
        methods.append(method("__str__", ["self"], [f"return f'{{self.{a}}}/{{self.{b}}}'"]))
    n = g.small(2, 4)
    firsts = [repr(w) for w in words(g, n, n)] if a_text else [str(v) for v in ints(g, -3, 9, n, n)]
    objs = [f"{cls}({f}, {g.small(0, 9)})" for f in firsts]
    lst, o = g.pick(["items", "cards", "points", "entries", "pile"]), g.pick(["o", "one", "c"])
    driver = [f"{lst} = [{', '.join(objs)}]"]
    result = lst
    if "lt" in extras:
        driver.append(f"{lst}.sort()")
    elif g.chance(0.5):
        driver.append(f"{lst}.sort(key=lambda {o}: {o}.{b}{', reverse=True' if g.chance(0.3) else ''})")
    if "add" in extras:
        s = g.pick(["combined", "merged", "summed"])
        driver.append(f"{s} = {lst}[0] + {lst}[1]")
        result = f"{lst}, {s}"
    if "eq" in extras:
        result += f", {lst}[0] == {cls}({lst}[0].{a}, {lst}[0].{b}), {lst}[0] == {lst}[-1]"
    if "str" in extras:
        driver += [f"for {o} in {lst}:", f"    print({o})"]
    else:
        driver += maybe_print(g, 0.5, lst)
    return Piece([klass(cls, methods)], driver, [], result)


def fam_class_attrs(g: ProgramRandom) -> Piece:
    """Class attributes shared by the instances, a ``@staticmethod`` check and a ``@classmethod``
    alternative constructor."""
    cls = class_name(g, ["Ticket", "User", "Order", "Badge", "Student", "Robot", "Session", "Label", "Token"])
    counter, prefix = g.pick(["count", "made", "next_id", "created", "total"]), g.pick(["prefix", "kind", "code", "group"])
    field_, num = g.pick(["title", "name", "tag", "word_"]), g.pick(["number", "ident", "serial", "seq"])
    check, build, show = g.pick(["is_valid", "ok", "accepts", "valid_name"]), g.pick(["from_text", "parse", "from_string", "make"]), g.pick(["label", "code_of", "badge", "display"])
    registry = g.pick(["registry", "all_", "instances", "members"]) if g.chance(0.4) else ""
    pfx = g.choice(["T", "U-", "#", "id", word(g)[:3]])
    attrs = [f"{counter} = 0", f"{prefix} = {pfx!r}"] + ([f"{registry} = []"] if registry else [])
    init = [f"{cls}.{counter} += 1", f"self.{num} = {cls}.{counter}", f"self.{field_} = {field_}"]
    init += [f"{cls}.{registry}.append(self.{field_})"] if registry else []
    t = g.pick(["text", "raw", "line"])
    parse = g.choice([f"return cls({t}.strip().lower())", f"return cls({t}.split('-')[0])", f"return cls({t}[::-1])", f"return cls({t}.title())"])
    methods = [method("__init__", ["self", field_], init),
               method(check, [field_], [f"return {g.word_cond(field_)}"], "staticmethod"),
               method(build, ["cls", t], [parse], "classmethod"),
               method(show, ["self"], [g.choice([f"return f'{{self.{prefix}}}{{self.{num}}}:{{self.{field_}}}'", f"return self.{prefix} + str(self.{num})"])])]
    ws, w, made, o = g.pick(["names", "titles", "raw_names", "candidates"]), g.pick(["w", "nm", "cand"]), g.pick(["made", "created", "kept", "objs"]), g.pick(["o", "one", "m"])
    driver = [f"{made} = []", f"for {w} in {ws}:", f"    if {cls}.{check}({w}):", f"        {made}.append({cls}({w}))"]
    if g.chance(0.3):
        driver += ["    else:", f"        print('skip', {w})"]
    driver.append(f"{made}.append({cls}.{build}({' '.join(words(g, 1, 2)) + ' ' + '-' + word(g)!r}))")
    tail = f"{cls}.{registry}" if registry else f"{made}[0].{counter}"
    result = f"[{o}.{show}() for {o} in {made}], {cls}.{counter}, {tail}"
    return Piece([klass(cls, methods, attrs=attrs)], driver, [(ws, lit(words(g, 2, 5)))], result)


def fam_linked_list(g: ProgramRandom) -> Piece:
    """A node class, a list built from a Python list, walked with while loops and recursion."""
    cls = class_name(g, ["Node", "ListNode", "Link", "Cell", "Item", "Element"])
    data, link = g.pick(["data", "val", "key", "payload", "info", "elem"]), g.pick(["next", "link", "nxt", "rest", "after"])
    lp = "nxt_" if link == "next" else link
    node_cls = klass(cls, [method("__init__", ["self", data, f"{lp}=None"], [f"self.{data} = {data}", f"self.{link} = {lp}"])])
    head, cur, prev, out = g.pick(["head", "first", "start", "front"]), g.pick(["cur", "node_", "walker", "here"]), g.pick(["prev", "before", "back"]), g.pick(["out", "vals", "collected", "seen"])
    xs, x = g.pick(["values", "nums", "items_", "source"]), g.pick(["v", "num", "elem_"])
    build, walk, rev, tot = g.pick(["build", "from_list", "make_list", "link_all"]), g.pick(["to_list", "walk", "collect", "as_list"]), g.pick(["reverse", "flip", "turn_around"]), g.pick(["total", "sum_nodes", "add_up"])
    defs = [node_cls,
            [f"def {build}({xs}):", f"    {head} = None", f"    for {x} in {g.choice([f'reversed({xs})', f'{xs}[::-1]'])}:", f"        {head} = {cls}({x}, {head})", f"    return {head}"],
            [f"def {walk}({head}):", f"    {out} = []", f"    {cur} = {head}", f"    while {cur}{' is not None' if g.chance(0.5) else ''}:",
             f"        {out}.append({cur}.{data})", f"        {cur} = {cur}.{link}", f"    return {out}"]]
    lst = g.pick(["chain", "linked", "lst", "items_list"])
    driver = [f"{lst} = {build}({xs})"]
    result = f"{walk}({lst})"
    if g.chance(0.5):
        after = g.pick(["following", "nxt_node", "upcoming"])
        defs.append([f"def {rev}({head}):", f"    {prev} = None", f"    {cur} = {head}", f"    while {cur}:", f"        {after} = {cur}.{link}",
                     f"        {cur}.{link} = {prev}", f"        {prev} = {cur}", f"        {cur} = {after}", f"    return {prev}"])
        driver.append(f"{lst} = {rev}({lst})")
    if g.chance(0.6):
        defs.append([f"def {tot}({cur}):", f"    if {cur} is None:", "        return 0", f"    return {cur}.{data} + {tot}({cur}.{link})"])
        result += f", {tot}({lst})"
    if g.chance(0.3):
        driver.append(f"{lst} = {cls}({g.small(0, 9)}, {lst})")
    driver += maybe_print(g, 0.3, f"{walk}({lst})")
    return Piece(defs, driver, [(xs, lit(some_ints(g, 0, 6)))], result)


def _bst(g: ProgramRandom) -> Piece:
    cls = class_name(g, ["Node", "TreeNode", "BSTNode", "Leaf", "Branch"])
    key, left, right = g.pick(["key", "val", "data", "num"]), g.pick(["left", "lo", "smaller"]), g.pick(["right", "hi", "larger"])
    ins, order, height = g.pick(["insert", "add", "put", "place"]), g.pick(["inorder", "walk", "in_order", "collect"]), g.pick(["height", "depth", "levels"])
    node = g.pick(["t", "root_", "nd", "tree"])
    methods = [method("__init__", ["self", key], [f"self.{key} = {key}", f"self.{left} = None", f"self.{right} = None"])]
    def side(attr: str) -> list[str]:
        return [f"    if self.{attr} is None:", f"        self.{attr} = {cls}({key})", "    else:", f"        self.{attr}.{ins}({key})"]
    methods.append(method(ins, ["self", key], [f"if {key} < self.{key}:", *side(left), "else:", *side(right)]))
    out = g.pick(["out", "acc", "keys_"])
    defs = [klass(cls, methods),
            [f"def {order}({node}, {out}):", f"    if {node} is None:", f"        return {out}", f"    {order}({node}.{left}, {out})",
             f"    {out}.append({node}.{key})", f"    {order}({node}.{right}, {out})", f"    return {out}"]]
    xs, x, root = g.pick(["keys", "values", "nums", "inserts"]), g.pick(["v", "k2", "num"]), g.pick(["root", "top", "base"])
    driver = [f"{root} = {cls}({xs}[0])", f"for {x} in {xs}[1:]:", f"    {root}.{ins}({x})"]
    result = f"{order}({root}, [])"
    if g.chance(0.6):
        defs.append([f"def {height}({node}):", f"    if {node} is None:", "        return 0",
                     f"    return 1 + max({height}({node}.{left}), {height}({node}.{right}))"])
        result += f", {height}({root})"
    keys = g.rng.sample(range(-9, 40), g.small(3, 7))
    return Piece(defs, driver, [(xs, lit(keys))], result)


def _general_tree(g: ProgramRandom) -> Piece:
    cls = class_name(g, ["Folder", "TreeNode", "Dept", "Category", "Task", "Region", "Section"])
    name, size, kids = g.pick(["name", "label", "title"]), g.pick(["size", "cost", "weight", "count", "hours"]), g.pick(["children", "kids", "subs", "parts"])
    add, tot, depth = g.pick(["add", "attach", "add_child", "grow"]), g.pick(["total", "total_size", "weigh", "sum_all"]), g.pick(["depth", "height", "levels"])
    ch = g.pick(["child", "sub", "kid"])
    loop_total = g.chance(0.5)
    total_body = ([f"t = self.{size}", f"for {ch} in self.{kids}:", f"    t += {ch}.{tot}()", "return t"] if loop_total
                  else [f"return self.{size} + sum({ch}.{tot}() for {ch} in self.{kids})"])
    methods = [method("__init__", ["self", name, f"{size}=0"], [f"self.{name} = {name}", f"self.{size} = {size}", f"self.{kids} = []"]),
               method(add, ["self", ch], [f"self.{kids}.append({ch})", f"return {ch}"]),
               method(tot, ["self"], total_body)]
    result_parts = [f"{{root}}.{tot}()"]
    if g.chance(0.5):
        methods.append(method(depth, ["self"], [f"if not self.{kids}:", "    return 1", f"return 1 + max({ch}.{depth}() for {ch} in self.{kids})"]))
        result_parts.append(f"{{root}}.{depth}()")
    root = g.pick(["root", "top", "home", "tree"])
    names = words(g, 4, 6)
    driver = [f"{root} = {cls}({names[0]!r})"]
    made = [root]
    for i, nm in enumerate(names[1:]):
        var = g.pick(["a", "b", "c", "d", "e2", "f2"])
        parent = g.choice(made)
        driver.append(f"{var} = {parent}.{add}({cls}({nm!r}, {g.small(0, 20)}))")
        made.append(var)
    driver += maybe_print(g, 0.3, f"len({root}.{kids})")
    return Piece([klass(cls, methods)], driver, [], ", ".join(p.format(root=root) for p in result_parts))


def fam_tree(g: ProgramRandom) -> Piece:
    """A binary search tree (insert as a method, a recursive walk) or a tree of named nodes."""
    return _bst(g) if g.chance(0.5) else _general_tree(g)


COMPOSE_THEMES = [
    ("Item", "Cart", "price"), ("Player", "Team", "score"), ("Book", "Shelf", "pages"), ("Task", "Project", "hours"),
    ("Song", "Playlist", "seconds"), ("Part", "Machine", "weight"), ("Dish", "Menu", "calories"), ("Course", "Plan", "credits"),
]  # fmt: skip


def _compose(g: ProgramRandom) -> Piece:
    part, whole, num = g.choice(COMPOSE_THEMES)
    part, whole, num = class_name(g, [part]), class_name(g, [whole]), g.pick([num, "amount", "points"])
    name, qty, items = g.pick(["name", "title", "label"]), g.pick(["qty", "copies", "times", "n_"]), g.pick(["items", "members", "entries", "parts_"])
    add, cost, total, best = g.pick(["add", "put", "include", "join"]), g.pick(["cost", "value", "worth"]), g.pick(["total", "sum_up", "overall"]), g.pick(["best", "top", "biggest"])
    el = g.pick(["el", "one", "it_"])
    part_cls = klass(part, [method("__init__", ["self", name, num, f"{qty}=1"], [f"self.{name} = {name}", f"self.{num} = {num}", f"self.{qty} = {qty}"]),
                            method(cost, ["self"], [f"return self.{num} * self.{qty}"])])
    total_body = g.choice([[f"t = 0", f"for {el} in self.{items}:", f"    t += {el}.{cost}()", "return t"], [f"return sum({el}.{cost}() for {el} in self.{items})"]])
    whole_cls = klass(whole, [method("__init__", ["self"], [f"self.{items} = []"]),
                              method(add, ["self", el], [f"self.{items}.append({el})"] + maybe_print(g, 0.3, repr("added"), f"{el}.{name}")),
                              method(total, ["self"], total_body),
                              method(best, ["self"], [f"return max(self.{items}, key=lambda {el}: {el}.{cost}()).{name}"])])
    names, nums, w = g.pick(["names", "titles", "labels"]), g.pick(["amounts", "values", "sizes"]), g.pick(["box", "group", "whole", "coll"])
    a, b = g.pick(["nm", "label_", "t_"]), g.pick(["amt", "v", "num_"])
    n = g.small(2, 4)
    driver = [f"{w} = {whole}()", f"for {a}, {b} in zip({names}, {nums}):", f"    {w}.{add}({part}({a}, {b}))"]
    if g.chance(0.5):
        driver.append(f"{w}.{add}({part}({word(g)!r}, {g.small(1, 9)}, {g.small(2, 4)}))")
    return Piece([part_cls, whole_cls], driver, [(names, lit(words(g, n, n))), (nums, lit(ints(g, 1, 30, n, n)))], f"{w}.{total}(), {w}.{best}()")


def _duel(g: ProgramRandom) -> Piece:
    cls = class_name(g, ["Fighter", "Robot", "Knight", "Monster", "Ship", "Hero", "Tank"])
    name, hp, power = g.pick(["name", "label", "tag"]), g.pick(["hp", "health", "armor", "life"]), g.pick(["power", "damage", "attack_", "strength"])
    hit, alive = g.pick(["hit", "attack", "strike", "fire_at"]), g.pick(["alive", "is_alive", "standing", "ok"])
    methods = [method("__init__", ["self", name, hp, power], [f"self.{name} = {name}", f"self.{hp} = {hp}", f"self.{power} = {power}"]),
               method(hit, ["self", "other"], [f"other.{hp} -= self.{power}"] + maybe_print(g, 0.3, f"self.{name}", repr("hits"), f"other.{name}")),
               method(alive, ["self"], [f"return self.{hp} > 0"])]
    a, b, rounds = g.pick(["a", "p1", "red", "left"]), g.pick(["b", "p2", "blue", "right"]), g.pick(["rounds", "turns", "steps"])
    driver = [f"{a} = {cls}({word(g)!r}, {g.small(5, 30)}, {g.small(2, 7)})", f"{b} = {cls}({word(g)!r}, {g.small(5, 30)}, {g.small(2, 7)})",
              f"{rounds} = 0", f"while {a}.{alive}() and {b}.{alive}():", f"    {a}.{hit}({b})", f"    if {b}.{alive}():", f"        {b}.{hit}({a})", f"    {rounds} += 1"]
    winner = f"{a}.{name} if {a}.{alive}() else {b}.{name}"
    return Piece([klass(cls, methods)], driver, [], g.choice([f"{rounds}, {a}.{hp}, {b}.{hp}", f"{rounds}, {winner}"]))


def fam_objects_interact(g: ProgramRandom) -> Piece:
    """Objects that hold or act on other objects: a whole made of parts, or two that fight."""
    return _compose(g) if g.chance(0.6) else _duel(g)


OBJECT_FAMILIES = {
    "class_container": fam_container, "class_account": fam_account, "class_inherit": fam_inherit,
    "class_property": fam_property, "class_repr": fam_repr, "class_attrs": fam_class_attrs,
    "linked_list": fam_linked_list, "tree": fam_tree, "objects_interact": fam_objects_interact,
}  # fmt: skip
