"""Writes a KiCad board's routing problem as a tEDAx route request for route-rnd.

Usage: route_export.py BOARD REQUEST_OUT SUMMARY_OUT [OPTIONS_JSON]

BOARD is read with KiCad's own reader (pcbnew.LoadBoard); the board is data, nothing in it is evaluated. OPTIONS_JSON
(a file) may hold {"nets": [net names to route], "netclass": a net class whose track width, clearance and via
size the router takes instead of the Default class's, "clearance_scale": a factor (1 to 4) on the clearance given to
the router (the board's own rules stay as they are; DRC checks against them), "trim_tracks": true (existing tracks
sent 2 um shorter at each end), "jitter_nm": up to 5000 (pad corners moved that much, see jitter())}. Only nets with a missing connection (KiCad's DRC) are routed; the
items of the other nets are obstacles. Nets are written as
"n<netcode>" (no escaping needed), copper layers as "<layer id>.<name>". SUMMARY_OUT receives JSON: the unconnected
count before routing, the routing rules passed to the router, counts of what was exported. Obstacles: every pad (the
other nets' as nets of their own), existing tracks and vias, copper text and graphics (bounding boxes). Zones (pours,
keep-out areas) are not sent: refill pours after routing; DRC on the result reports what crosses them. Exit 2 = the
board cannot be read (message on stderr); exit 3 = nothing to route (message on stderr).
"""

import json
import math
import os
import re
import sys
import zlib

import pcbnew


def mm(v):
    return "%.6f" % pcbnew.ToMM(v)


def fail(code, message):
    sys.stderr.write(message + "\n")
    sys.exit(code)


def layer_tag(board, layer):
    return "%d.%s" % (layer, pcbnew.BOARD.GetStandardLayerName(layer).replace(".", "_"))


# KiCad 9's pads carry a padstack: shape, size and position are asked per layer. The demos' pads (and every pad not
# in a custom padstack mode) keep one shape for all layers, stored under PADSTACK.ALL_LAYERS (F_Cu).
ALL = pcbnew.PADSTACK.ALL_LAYERS


def pad_segment(pad):
    """A round pad as route-rnd's terminal form, a zero-length line as wide as the pad; other shapes: None (they go as
    their polygon). Measured on ecc83: sending ovals and rectangles as capped lines too doubled the clearance errors."""
    if pad.GetShape(ALL) != pcbnew.PAD_SHAPE_CIRCLE:
        return None
    c = pad.ShapePos(ALL)
    return (c.x, c.y), (c.x, c.y), pad.GetSize(ALL).x


def pad_outline(pad):
    """A non-round pad's outline: its rotated size rectangle for ovals, rectangles, rounded and chamfered rectangles
    (it covers them; four corners keep the router's triangulation small, where an oval's polygon has dozens), else
    KiCad's own polygon of the pad."""
    if pad.GetShape(ALL) not in (pcbnew.PAD_SHAPE_OVAL, pcbnew.PAD_SHAPE_RECT, pcbnew.PAD_SHAPE_ROUNDRECT,
                              pcbnew.PAD_SHAPE_CHAMFERED_RECT):
        outline = pad.GetEffectivePolygon(ALL).Outline(0)
        return [(outline.CPoint(i).x, outline.CPoint(i).y) for i in range(outline.PointCount())]
    c, size = pad.ShapePos(ALL), pad.GetSize(ALL)
    a = math.radians(-pad.GetOrientationDegrees())
    cos, sin = math.cos(a), math.sin(a)
    hw, hh = size.x / 2.0, size.y / 2.0
    return [(c.x + dx * cos - dy * sin, c.y + dx * sin + dy * cos)
            for dx, dy in ((-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh))]


def trimmed(track, by=2000):
    """A track's end points moved `by` nm (2 um) towards each other: an existing track ends exactly on a pad's centre
    or another track's end, and route-rnd's topological router aborts on such coincident points ("object
    collision", then an assertion in its triangulation); the track's width still covers the gap."""
    s, e = track.GetStart(), track.GetEnd()
    length = math.hypot(e.x - s.x, e.y - s.y)
    if length <= 4 * by:
        return (s.x, s.y), (e.x, e.y)
    dx, dy = (e.x - s.x) * by / length, (e.y - s.y) * by / length
    return (s.x + dx, s.y + dy), (e.x - dx, e.y - dy)


JITTER = [0]  # nm; set from the options: 0 keeps the coordinates exact


def jitter(x, y, key):
    """(x, y) moved by up to JITTER nm, the same for the same key: pads placed on a grid have exactly collinear corners
    across footprints, and route-rnd's triangulation aborts on them (cdt.c "!ORIENT_COLLINEAR"); a few micrometres
    break the tie and stay far inside any rule."""
    if not JITTER[0]:
        return x, y
    h = zlib.crc32(key.encode("utf-8"))
    return x + (h % 2001 - 1000) * JITTER[0] // 1000, y + ((h >> 11) % 2001 - 1000) * JITTER[0] // 1000


def open_nets(board, report_path):
    """Names of the nets with a missing connection, from KiCad's own DRC (its unconnected items name their nets):
    only those are routed, so a partly routed board keeps its routed nets as they are."""
    pcbnew.WriteDRCReport(board, report_path, pcbnew.EDA_UNITS_MM, False)
    names, inside = set(), False
    with open(report_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("["):
                inside = line.startswith("[unconnected_items]")
            elif inside and line.lstrip().startswith("@("):
                m = re.search(r"\): .*?\[(.*?)\]", line)
                if m:
                    names.add(m.group(1))
    return names


def main(argv):
    if len(argv) not in (4, 5):
        fail(64, "usage: route_export.py BOARD REQUEST_OUT SUMMARY_OUT [OPTIONS_JSON]")
    board_path, req_path, summary_path = argv[1:4]
    options = {}
    if len(argv) == 5:
        with open(argv[4], encoding="utf-8") as f:
            options = json.load(f)
    try:
        board = pcbnew.LoadBoard(board_path)
    except Exception as err:  # KiCad raises IO_ERROR with the parser's line and offset
        fail(2, str(err).strip() or "pcbnew cannot read the board")
    if board is None:
        fail(2, "pcbnew cannot read the board")

    board.BuildConnectivity()
    unrouted_before = board.GetConnectivity().GetUnconnectedCount(False)
    wanted = options.get("nets")
    known = {n.GetNetname() for n in board.GetNetsByNetcode().values()}
    if wanted is not None:
        missing = sorted(set(wanted) - known)
        if missing:
            fail(3, "nets not on the board: " + ", ".join(missing))
    unrouted = open_nets(board, os.path.join(os.path.dirname(os.path.abspath(summary_path)), "before.rpt"))
    wanted = unrouted if wanted is None else unrouted & set(wanted)
    if not wanted:
        fail(3, "no unrouted connection on the board" + ("" if options.get("nets") is None else " in the nets named"))

    def routed(code, name):
        return code > 0 and name in wanted

    ds = board.GetDesignSettings()
    nc = ds.m_NetSettings.GetDefaultNetclass()
    if options.get("netclass"):
        if not ds.m_NetSettings.HasNetclass(options["netclass"]):
            fail(3, "no net class %s on the board" % options["netclass"])
        nc = ds.m_NetSettings.GetNetClassByName(options["netclass"])
    scale = min(4.0, max(1.0, float(options.get("clearance_scale", 1.0))))
    JITTER[0] = int(min(5000, max(0, int(options.get("jitter_nm", 0)))))
    clearance = int(max(nc.GetClearance(), ds.GetBiggestClearanceValue()) * scale)
    rules = {
        "wire_thick": pcbnew.ToMM(nc.GetTrackWidth()),
        "wire_clr": pcbnew.ToMM(clearance),
        "via_dia": pcbnew.ToMM(nc.GetViaDiameter()),
        "via_drill": pcbnew.ToMM(nc.GetViaDrill()),
        "via_clr": pcbnew.ToMM(clearance),
    }
    clr = mm(clearance)

    layers = list(board.GetEnabledLayers().CuStack())
    if len(layers) < 2:
        fail(3, "the board has fewer than two copper layers")
    objects = {tag: [] for tag in map(lambda l: layer_tag(board, l), layers)}
    polylines = []
    counts = {"pads": 0, "tracks": 0, "vias": 0, "terminals": 0}

    def net_of(item, uid):
        # An item of a net not routed gets a net of its own ("x<id>"): an obstacle with nothing to connect. (route-rnd
        # routes every net it is given, and its topological router aborts on some boards given many "-" items.)
        code, name = item.GetNetCode(), item.GetNetname()
        if routed(code, name):
            return "n%d" % code
        # Items of one board net share one obstacle net: a track ending on its own pad is then no collision.
        return ("x%d" % code) if code > 0 and options.get("obstacle_nets") == "shared" else "x" + uid

    for fp in board.GetFootprints():
        for pad in fp.Pads():
            counts["pads"] += 1
            uid = "pad%d" % counts["pads"]
            net = net_of(pad, uid)
            flags = "tmd" if net.startswith("n") else "md"
            if net.startswith("n"):
                counts["terminals"] += 1
            seg = pad_segment(pad)
            if seg:
                (ax, ay), (bx, by), width = seg
                (ax, ay), (bx, by) = jitter(ax, ay, uid), jitter(bx, by, uid)
                geo = "line %s %s %s %s %s %s %s %s %s" % (uid, net, flags, mm(ax), mm(ay), mm(bx), mm(by), mm(width), clr)
            else:
                name = "poly_" + uid
                polylines.append("begin polyline v1 %s\n%s\nend polyline\n" % (
                    name, "\n".join(" v %s %s" % (mm(x), mm(y)) for x, y in (
                        jitter(px, py, "%s.%d" % (uid, k)) for k, (px, py) in enumerate(pad_outline(pad))))))
                geo = "poly %s %s %s %s 0 0" % (uid, net, flags, name)
            for layer in layers:
                if pad.IsOnLayer(layer):
                    objects[layer_tag(board, layer)].append(geo)

    vias = []
    for t in board.GetTracks():
        net = net_of(t, "t%d" % (counts["vias"] + counts["tracks"]))
        if t.GetClass() == "PCB_VIA":
            counts["vias"] += 1
            p = t.GetPosition()
            vias.append(" via via%d %s md %s %s %s 0" % (counts["vias"], net, mm(p.x), mm(p.y), mm(t.GetWidth())))
            continue
        counts["tracks"] += 1
        (sx, sy), (ex, ey) = trimmed(t) if options.get("trim_tracks") else ((t.GetStart().x, t.GetStart().y),
                                                                             (t.GetEnd().x, t.GetEnd().y))
        line = "line trk%d %s md %s %s %s %s %s %s" % (
            counts["tracks"], net, mm(sx), mm(sy), mm(ex), mm(ey), mm(t.GetWidth()), clr)
        objects[layer_tag(board, t.GetLayer())].append(line)

    # Copper text and graphics (board and footprint items) are obstacles: their bounding boxes, nets of their own.
    graphics = [d for d in board.GetDrawings() if d.GetLayer() in layers]
    for fp in board.GetFootprints():
        graphics += [g for g in fp.GraphicalItems() if g.GetLayer() in layers]
    for i, item in enumerate(graphics):
        bb = item.GetBoundingBox()
        name = "poly_gr%d" % i
        corners = ((bb.GetX(), bb.GetY()), (bb.GetRight(), bb.GetY()), (bb.GetRight(), bb.GetBottom()),
                   (bb.GetX(), bb.GetBottom()))
        polylines.append("begin polyline v1 %s\n%s\nend polyline\n" % (
            name, "\n".join(" v %s %s" % (mm(x), mm(y)) for x, y in corners)))
        objects[layer_tag(board, item.GetLayer())].append("poly gr%d xgr%d md %s 0 0" % (i, i, name))
    counts["graphics"] = len(graphics)

    if counts["terminals"] == 0:
        fail(3, "no pad carries a net to route")

    with open(req_path, "w", encoding="utf-8") as out:
        out.write("tEDAx v1\n\nbegin stackup v1 board_stackup\n")
        for i, layer in enumerate(layers):
            where = "top" if i == 0 else "bottom" if i == len(layers) - 1 else "inner"
            out.write(" layer %s %s copper\n" % (layer_tag(board, layer), where))
        out.write("end stackup\n\n")
        out.writelines(polylines)
        for tag, lines in objects.items():
            out.write("\nbegin layernet v1 %s\n" % tag)
            out.writelines(" %s\n" % l for l in lines)
            out.write("end layernet\n")
        out.write("\nbegin route_req v1 board\n")
        for key in ("wire_thick", "wire_clr", "via_dia", "via_clr"):
            out.write(" conf %s %.6f\n" % (key, rules[key]))
        out.write(" stackup board_stackup\n")
        out.writelines(v + "\n" for v in vias)
        out.write(" route_all\nend route_req\n")

    with open(summary_path, "w", encoding="utf-8") as out:
        json.dump({"unrouted_before": unrouted_before, "rules": rules, "counts": counts,
                   "layers": [layer_tag(board, l) for l in layers]}, out)


if __name__ == "__main__":
    main(sys.argv)
