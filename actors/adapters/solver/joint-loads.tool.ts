import { z } from 'zod';
import { defineTool } from '../kit/tool.ts';

const r = (x: number) => Number(x.toPrecision(5));

/** Arguments of `solver.compute_joint_loads`: a planar serial chain from the base outward. */
export const JointLoadsInputSchema = z.object({
  links: z
    .array(
      z.object({
        name: z.string().min(1).optional(),
        length_mm: z.number().positive(),
        mass_kg: z.number().min(0),
        com_fraction: z
          .number()
          .min(0)
          .max(1)
          .default(0.5)
          .describe('centre of mass along the link, 0 at its joint, 1 at its end'),
        angle_deg: z.number().default(0).describe('link angle from the horizontal (absolute, in the vertical plane)'),
      }),
    )
    .min(1)
    .describe('links from the base outward; joint i drives link i'),
  payload_kg: z.number().min(0).default(0).describe('mass at the end of the last link'),
  gravity_m_s2: z.number().positive().default(9.81),
  safety_factor: z.number().min(1).default(1),
});

/**
 * Static joint loads of a planar serial arm under gravity: at joint i the torque Σ m g · (horizontal distance from joint
 * i) over every link beyond it and the payload, and the vertical force it carries; also the worst case with every link
 * horizontal. No accelerations (multiply by a dynamic factor through safety_factor).
 */
export function jointLoads(a: z.output<typeof JointLoadsInputSchema>) {
  const g = a.gravity_m_s2;
  const n = a.links.length;
  // Joint positions (horizontal, m) in the pose and fully stretched.
  const x = [0];
  const xFlat = [0];
  a.links.forEach((l, i) => {
    x.push(x[i] + (l.length_mm / 1000) * Math.cos((l.angle_deg * Math.PI) / 180));
    xFlat.push(xFlat[i] + l.length_mm / 1000);
  });
  const com = (i: number, xs: number[]) => xs[i] + a.links[i].com_fraction * (xs[i + 1] - xs[i]);
  const joints = a.links.map((l, i) => {
    let torque = 0;
    let flat = 0;
    let mass = a.payload_kg;
    for (let j = i; j < n; j++) {
      torque += a.links[j].mass_kg * g * (com(j, x) - x[i]);
      flat += a.links[j].mass_kg * g * (com(j, xFlat) - xFlat[i]);
      mass += a.links[j].mass_kg;
    }
    torque += a.payload_kg * g * (x[n] - x[i]);
    flat += a.payload_kg * g * (xFlat[n] - xFlat[i]);
    return {
      joint: i + 1,
      drives: l.name ?? `link ${i + 1}`,
      torque_nm: r(torque),
      worst_case_torque_nm: r(Math.abs(flat)),
      design_torque_nm: r(Math.max(Math.abs(torque), Math.abs(flat)) * a.safety_factor),
      vertical_force_n: r(mass * g),
      mass_carried_kg: r(mass),
    };
  });
  return {
    joints,
    total_mass_kg: r(a.links.reduce((s, l) => s + l.mass_kg, 0) + a.payload_kg),
    reach_mm: r(xFlat[n] * 1000),
    pose_reach_mm: r(x[n] * 1000),
    safety_factor: a.safety_factor,
    assumptions:
      'static, planar chain in a vertical plane, gravity straight down, angles from the horizontal, no accelerations or friction; torque sign positive when gravity pulls the outer links down',
  };
}

/** `solver.compute_joint_loads`. */
export const jointLoadsTool = defineTool({
  name: 'compute_joint_loads',
  title: 'Static joint torques of an arm',
  description:
    'Gravity torques and vertical forces at each joint of a planar serial arm (links from the base out: length_mm, mass_kg, com_fraction, angle_deg from the horizontal; payload_kg at the tip), ' +
    'in the given pose and in the worst case (all links horizontal), times safety_factor.',
  input: JointLoadsInputSchema,
  handler: async (a) => jointLoads(a),
});
