"""Measures library footprints, and writes a placed KiCad 9 board from a placement (eda layout, decision 0165).

Usage: place_board.py measure REQUEST_JSON OUT_JSON
       place_board.py write REQUEST_JSON OUT_BOARD

Both read only data: REQUEST_JSON names footprints as (library, name) pairs under one library root, already checked
by the caller (layout/footprints.ts); this script checks again that each resolved library folder lies inside the root
and exits 2 naming the footprint when one does not or when KiCad cannot load it.

measure: for each footprint, its courtyard box (F.CrtYd and B.CrtYd together; the footprint's own box when it has no
courtyard) and its pads (number, centre, through-hole or not), in millimetres around the footprint's origin at
rotation 0, written to OUT_JSON.

write: a new two-layer board: the nets, each footprint loaded from its library with its reference, value, library
id (library:name), the schematic path of its symbol (KiCad's parity matches footprints to symbols by it), its pads'
nets as the netlist gives them (a pad number the netlist does not name stays without a net), placed at (x, y) mm
with the rotation given, on the front; and the board outline on Edge.Cuts. Saved with pcbnew.SaveBoard.
"""

import json
import os
import sys

import pcbnew

SCALE = 1e6  # mm to KiCad's nanometres


def nm(v):
    return int(round(float(v) * SCALE))


def mm(v):
    return round(v / SCALE, 4)


def fail(code, message):
    sys.stderr.write(message + "\n")
    sys.exit(code)


def load(root, lib, name):
    """The library footprint, or exit 2 naming it: the folder must lie inside the library root."""
    real_root = os.path.realpath(root)
    folder = os.path.realpath(os.path.join(real_root, lib + ".pretty"))
    if os.path.dirname(folder) != real_root or not os.path.isdir(folder):
        fail(2, "footprint %s:%s: no library %s under %s" % (lib, name, lib, root))
    mod = os.path.realpath(os.path.join(folder, name + ".kicad_mod"))
    if os.path.dirname(mod) != folder or not os.path.isfile(mod):
        fail(2, "footprint %s:%s: no footprint %s in library %s" % (lib, name, name, lib))
    fp = pcbnew.FootprintLoad(folder, name)
    if fp is None:
        fail(2, "footprint %s:%s: KiCad cannot load it" % (lib, name))
    return fp


def box_of(fp):
    fp.BuildCourtyardCaches()
    boxes = []
    for layer in (pcbnew.F_CrtYd, pcbnew.B_CrtYd):
        shape = fp.GetCourtyard(layer)
        if shape.OutlineCount() > 0:
            boxes.append(shape.BBox())
    if not boxes:
        b = fp.GetBoundingBox(False)
        return {"x1": mm(b.GetLeft()), "y1": mm(b.GetTop()), "x2": mm(b.GetRight()), "y2": mm(b.GetBottom())}, False
    return {
        "x1": mm(min(b.GetLeft() for b in boxes)),
        "y1": mm(min(b.GetTop() for b in boxes)),
        "x2": mm(max(b.GetRight() for b in boxes)),
        "y2": mm(max(b.GetBottom() for b in boxes)),
    }, True


def measure(req, out):
    result = []
    for f in req["footprints"]:
        fp = load(req["lib_root"], f["lib"], f["name"])
        box, has = box_of(fp)
        pads = []
        for p in fp.Pads():
            pos = p.GetPosition()
            pads.append(
                {
                    "number": p.GetNumber(),
                    "x": mm(pos.x),
                    "y": mm(pos.y),
                    "through_hole": p.GetAttribute() == pcbnew.PAD_ATTRIB_PTH,
                }
            )
        result.append({"ref": f["ref"], "courtyard": box, "has_courtyard": has, "pads": pads})
    with open(out, "w") as fh:
        json.dump({"footprints": result}, fh)


def write(req, out):
    board = pcbnew.BOARD()
    board.SetCopperLayerCount(2)
    nets = {}
    for name in req["nets"]:
        net = pcbnew.NETINFO_ITEM(board, name)
        board.Add(net)
        nets[name] = net
    for f in req["footprints"]:
        fp = load(req["lib_root"], f["lib"], f["name"])
        fp.SetFPID(pcbnew.LIB_ID(f["lib"], f["name"]))
        fp.SetReference(f["ref"])
        fp.SetValue(f["value"])
        fp.SetPath(pcbnew.KIID_PATH(f["path"]))
        fp.SetSheetname(f.get("sheetname", ""))
        fp.SetSheetfile(f.get("sheetfile", ""))
        board.Add(fp)
        for p in fp.Pads():
            name = f["pads"].get(p.GetNumber())
            if name is not None:
                p.SetNet(nets[name])
        fp.SetPosition(pcbnew.VECTOR2I(nm(f["x"]), nm(f["y"])))
        fp.SetOrientationDegrees(float(f["rotation"]))
    o = req["outline"]
    edge = pcbnew.PCB_SHAPE(board)
    edge.SetShape(pcbnew.SHAPE_T_RECT)
    edge.SetStart(pcbnew.VECTOR2I(nm(o["x"]), nm(o["y"])))
    edge.SetEnd(pcbnew.VECTOR2I(nm(o["x"] + o["width"]), nm(o["y"] + o["height"])))
    edge.SetLayer(pcbnew.Edge_Cuts)
    edge.SetWidth(nm(0.1))
    board.Add(edge)
    if not pcbnew.SaveBoard(out, board):
        fail(1, "pcbnew could not save the board")


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("measure", "write"):
        fail(64, "usage: place_board.py measure|write REQUEST_JSON OUT")
    with open(sys.argv[2]) as fh:
        req = json.load(fh)
    (measure if sys.argv[1] == "measure" else write)(req, sys.argv[3])


if __name__ == "__main__":
    main()
