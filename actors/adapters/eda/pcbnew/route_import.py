"""Imports route-rnd's tEDAx route result into a KiCad board, saves it, reloads it and runs KiCad's DRC on it.

Usage: route_import.py BOARD ROUTE_RESULT OUT_BOARD DRC_REPORT SUMMARY_OUT [OPTIONS_JSON]

BOARD is the board the request was exported from (route_export.py); OUT_BOARD receives it with the router's tracks
and vias added (nets "n<netcode>"; a wire the router left without a net takes the net of what its end points touch:
a via or wire of known net, else a pad). OUT_BOARD is then loaded again from disk and checked: the unconnected count
from KiCad's connectivity and pcbnew.WriteDRCReport into DRC_REPORT. SUMMARY_OUT receives JSON with the counts.
A route that shorts another net (KiCad 6: a clearance of 0; KiCad 9: shorting_items) is torn up whole, counted in
added.torn_up. With OPTIONS_JSON {"tear_up": "errors"} (a sixth argument, a file) a route in any error-severity
violation is torn up whole, so what stays passes DRC and the connection is left unrouted for another pass.
Objects the router emits that KiCad cannot take (an unknown layer or shape) are counted as skipped, never guessed.
"""

import json
import re
import sys

import pcbnew

SCALE = 1e6  # mm to KiCad's nanometres


def nm(text):
    return int(round(float(text) * SCALE))


def tokens(line):
    """A tEDAx line split on blanks; a backslash escapes the next character."""
    out, cur, esc, any_ = [], [], False, False
    for ch in line:
        if esc:
            cur.append(ch)
            esc = False
            any_ = True
        elif ch == "\\":
            esc = True
        elif ch in " \t":
            if any_:
                out.append("".join(cur))
            cur, any_ = [], False
        else:
            cur.append(ch)
            any_ = True
    if any_:
        out.append("".join(cur))
    return out


def read_result(path):
    lines, inside = [], False
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            t = tokens(raw.strip())
            if not t:
                continue
            if t[:2] == ["begin", "route_res"]:
                inside = True
            elif t[:2] == ["end", "route_res"]:
                inside = False
            elif inside:
                lines.append(t)
    return lines


def net_code(tag):
    return int(tag[1:]) if re.fullmatch(r"n\d+", tag or "") else None


def offenders(report_path, every_error=False):
    """(kind, net, x, y) of the tracks and vias in a KiCad DRC report's shorts (clearance at 0 mm, KiCad 6;
    shorting_items, KiCad 9), or with every_error in any error-severity violation; the position is the one the report
    gives (a point of the track, usually its start; a via's centre), in nanometres."""
    out, hit, blocked = [], False, False
    with open(report_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("["):
                blocked = line.startswith("[unconnected_items]")
                hit = not blocked and (line.startswith("[shorting_items]") or (
                    line.startswith("[clearance]") and "actual 0.0000 mm" in line))
                continue
            if every_error and not blocked and line.strip().startswith("Rule:") and line.rstrip().endswith("; error"):
                hit = True
            m = re.match(r"\s+@\(([-\d.]+) mm, ([-\d.]+) mm\): (Track|Via) \[(.*?)\] ", line)
            if hit and m:
                out.append((m.group(3), m.group(4), nm(m.group(1)), nm(m.group(2))))
    return out


def unconnected_nets(report_path):
    """Names of the nets KiCad's DRC report lists among its unconnected items."""
    names, inside = set(), False
    with open(report_path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if line.startswith("["):
                inside = line.startswith("[unconnected_items]")
            elif inside:
                m = re.match(r"\s+@\(.*?\): .*?\[(.*?)\]", line)
                if m:
                    names.add(m.group(1))
    return names


class Joints:
    """Union-find over wire end points and vias (exact coordinates, per layer; vias join every layer)."""

    def __init__(self):
        self.parent = {}

    def find(self, k):
        self.parent.setdefault(k, k)
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def union(self, a, b):
        self.parent[self.find(a)] = self.find(b)


def main(argv):
    if len(argv) not in (6, 7):
        sys.stderr.write("usage: route_import.py BOARD ROUTE_RESULT OUT_BOARD DRC_REPORT SUMMARY_OUT [OPTIONS_JSON]\n")
        sys.exit(64)
    board_path, result_path, out_path, drc_path, summary_path = argv[1:6]
    options = {}
    if len(argv) == 7:
        with open(argv[6], encoding="utf-8") as f:
            options = json.load(f)
    every_error = options.get("tear_up") == "errors"
    # {"nets": [names]}: only the routes of these nets are taken (another route result merged into a routed board).
    only = set(options["nets"]) if options.get("nets") is not None else None
    board = pcbnew.LoadBoard(board_path)
    copper = set(board.GetEnabledLayers().CuStack())
    nets = board.GetNetsByNetcode()
    nc = board.GetDesignSettings().m_NetSettings.GetDefaultNetclass()
    skipped, wires, vias = {}, [], []

    for t in read_result(result_path):
        if t[0] != "add":
            continue
        if len(t) >= 9 and t[2] == "via":
            vias.append((nm(t[5]), nm(t[6]), nm(t[7]), net_code(t[4])))
            continue
        m = re.fullmatch(r"(\d+)\..*", t[1])
        layer = int(m.group(1)) if m else None
        if len(t) >= 11 and t[2] == "line" and layer in copper:
            x1, y1, x2, y2, width = (nm(v) for v in t[5:10])
            if (x1, y1) != (x2, y2):
                wires.append((layer, x1, y1, x2, y2, width, net_code(t[4])))
            continue
        key = "%s on %s" % (t[2], t[1])
        skipped[key] = skipped.get(key, 0) + 1

    # Nets for wires the router left without one: joined end points, then vias, then pads under an end point.
    joints = Joints()
    for i, (layer, x1, y1, x2, y2, _, _) in enumerate(wires):
        joints.union(("w", i), (layer, x1, y1))
        joints.union(("w", i), (layer, x2, y2))
    for i, (x, y, _, _) in enumerate(vias):
        for layer in copper:
            joints.union(("v", i), (layer, x, y))
    known = {}
    for i, w in enumerate(wires):
        if w[6] is not None:
            known.setdefault(joints.find(("w", i)), w[6])
    for i, v in enumerate(vias):
        if v[3] is not None:
            known.setdefault(joints.find(("v", i)), v[3])
    pads = [p for p in board.GetPads() if p.GetNetCode() > 0]
    for i, (layer, x1, y1, x2, y2, _, code) in enumerate(wires):
        root = joints.find(("w", i))
        if root in known:
            continue
        for x, y in ((x1, y1), (x2, y2)):
            hit = next((p for p in pads if p.IsOnLayer(layer) and p.HitTest(pcbnew.VECTOR2I(x, y))), None)
            if hit:
                known[root] = hit.GetNetCode()
                break

    added = {"tracks": 0, "vias": 0, "without_net": 0, "torn_up": 0}
    made = []
    for i, (layer, x1, y1, x2, y2, width, code) in enumerate(wires):
        code = code if code is not None else known.get(joints.find(("w", i)))
        if code is None or code not in nets:
            added["without_net"] += 1
            continue
        if only is not None and nets[code].GetNetname() not in only:
            continue
        track = pcbnew.PCB_TRACK(board)
        track.SetStart(pcbnew.VECTOR2I(x1, y1))
        track.SetEnd(pcbnew.VECTOR2I(x2, y2))
        track.SetWidth(width)
        track.SetLayer(layer)
        track.SetNet(nets[code])
        board.Add(track)
        made.append((joints.find(("w", i)), track))
    for i, (x, y, dia, code) in enumerate(vias):
        code = code if code is not None else known.get(joints.find(("v", i)))
        if code is None or code not in nets:
            added["without_net"] += 1
            continue
        if only is not None and nets[code].GetNetname() not in only:
            continue
        via = pcbnew.PCB_VIA(board)
        via.SetPosition(pcbnew.VECTOR2I(x, y))
        via.SetWidth(dia)
        via.SetDrill(min(nc.GetViaDrill(), dia * 4 // 5))
        via.SetNet(nets[code])
        board.Add(via)
        made.append((joints.find(("v", i)), via))

    # A route that touches copper of another net (a short: KiCad's DRC measures 0 clearance) is torn up whole (every
    # wire and via joined to the shorting one), leaving that connection unrouted rather than shorted.
    shorting = set()
    for _ in range(4 if not every_error else 8):  # a violation reported once per pair is matched once per round
        pcbnew.WriteDRCReport(board, drc_path, pcbnew.EDA_UNITS_MM, True)
        found = set()
        for kind, net, x, y in offenders(drc_path, every_error):
            for root, obj in made:
                if root not in shorting and obj.GetNetname() == net and (obj.GetClass() == "PCB_VIA") == (kind == "Via"):
                    p = obj.GetPosition() if kind == "Via" else obj.GetStart()
                    if (abs(p.x - x) <= 1000 and abs(p.y - y) <= 1000) or obj.HitTest(pcbnew.VECTOR2I(x, y)):
                        found.add(root)
        if not found:
            break
        for root, obj in made:
            if root in found:
                board.RemoveNative(obj)
        shorting |= found
    for root, obj in made:
        if root not in shorting:
            added["vias" if obj.GetClass() == "PCB_VIA" else "tracks"] += 1
    added["torn_up"] = len(shorting)

    pcbnew.SaveBoard(out_path, board)
    saved = pcbnew.LoadBoard(out_path)
    saved.BuildConnectivity()
    unrouted_after = saved.GetConnectivity().GetUnconnectedCount(False)
    pcbnew.WriteDRCReport(saved, drc_path, pcbnew.EDA_UNITS_MM, True)

    with open(summary_path, "w", encoding="utf-8") as out:
        json.dump({"unrouted_after": unrouted_after, "added": added, "skipped": skipped,
                   "open_nets": sorted(unconnected_nets(drc_path))}, out)


if __name__ == "__main__":
    main(sys.argv)
