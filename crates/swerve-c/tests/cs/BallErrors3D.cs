// Bad input to Swerve.BallWorld3D: each refused call raises the exception .NET code expects,
// with swerve's message, and changes nothing (what tests/c/balls3d_errors.c checks from C).
// Along the way, what each call did is read back, so a wrapper that reads or writes the wrong
// thing is caught too. Prints each check that fails, and "all checks passed" when none does.

using System;
using System.Collections.Generic;
using Swerve;
using Swerve.Native;
using Vec3 = System.Numerics.Vector3;
using C = Checks;

static unsafe class BallErrors3D
{
    static bool Same(Sphere a, Sphere b)
    {
        return a.Position == b.Position && a.Velocity == b.Velocity && a.Radius == b.Radius && a.Mass == b.Mass
            && a.Restitution == b.Restitution && a.Friction == b.Friction && a.RollingResistance == b.RollingResistance
            && a.AngularVelocity == b.AngularVelocity;
    }

    // Every sphere's whole state is what it was.
    static bool Unchanged(BallWorld3D world, Sphere[] saved)
    {
        Sphere[] now = world.GetSpheres();
        if (now.Length != saved.Length)
        {
            return false;
        }
        for (int i = 0; i < now.Length; ++i)
        {
            if (!Same(now[i], saved[i]))
            {
                return false;
            }
        }
        return true;
    }

    static Vec3 V(float x, float y, float z)
    {
        return new Vec3(x, y, z);
    }

    static int Main()
    {
        // The public structs have the C interface's layout (arrays are filled in place).
        C.Check(sizeof(Sphere) == sizeof(SwerveSphere) && sizeof(Contact3D) == sizeof(SwerveContact3d), "Sphere and Contact3D as in C");
        C.Check(sizeof(RayHit3D) == sizeof(SwerveRayHit3d) && sizeof(Triangle) == sizeof(SwerveTriangle), "RayHit3D and Triangle as in C");
        C.Check(sizeof(Bounds3D) == sizeof(SwerveBounds3d), "Bounds3D as in C");

        // ----- broad phases and creating a world -----
        string[] names = BallWorld3D.BroadPhaseNames;
        C.Check(string.Join(",", names) == "brute-force,sort-and-sweep,uniform-grid,hierarchical-grid,octree",
                "the 3-D broad phases' names, in order: " + string.Join(",", names));
        Bounds3D box = new Bounds3D(V(0.0f, 0.0f, 0.0f), V(10.0f, 10.0f, 10.0f));
        C.Raises<ArgumentException>(() => new BallWorld3D(box, "quadtree"), "unknown 3-D broad phase \"quadtree\"", "the planar world's quadtree");
        C.Raises<ArgumentException>(() => new BallWorld3D(box, "quadtree"), "octree", "the message lists the names");
        C.Raises<ArgumentException>(() => new BallWorld3D(box, "aabb-tree"), "broad phase", "the planar world's tree");
        C.Raises<ArgumentException>(() => new BallWorld3D(box, ""), "broad phase", "an empty name");
        C.Raises<ArgumentException>(() => new BallWorld3D(box, "octree\0"), "NUL", "a name with a NUL in it");
        C.Raises<ArgumentNullException>(() => new BallWorld3D(box, null), "broadPhase", "no name");
        Bounds3D flat = box;
        flat.Max.Z = 0.0f;
        C.Raises<ArgumentException>(() => new BallWorld3D(flat, "octree"), "bounds size", "flat bounds");
        Bounds3D nan = box;
        nan.Max.Y = float.NaN;
        C.Raises<ArgumentException>(() => new BallWorld3D(nan, "octree"), "bounds max must be finite", "NaN bounds");
        Bounds3D infinite = box;
        infinite.Min.X = float.NegativeInfinity;
        C.Raises<ArgumentException>(() => new BallWorld3D(infinite, "octree"), "bounds min must be finite", "infinite bounds");

        BallWorld3D world = new BallWorld3D(box, "uniform-grid");
        C.Check(world.Bounds.HasValue && world.Bounds.Value.Max == V(10.0f, 10.0f, 10.0f) && world.Bounds.Value.Min == V(0.0f, 0.0f, 0.0f), "the bounds read back");
        C.Check(world.BroadPhase == "uniform-grid", "the broad phase read back: " + world.BroadPhase);

        // ----- spheres -----
        Sphere sphere = new Sphere(V(2.0f, 2.0f, 2.0f), V(1.0f, 0.0f, 0.0f), 0.5f);
        C.Check(sphere.Mass == 4.0f / 3.0f * 3.14159265f * 0.5f * 0.5f * 0.5f && sphere.Restitution == 1.0f, "a sphere's defaults");
        C.Check(sphere.Friction == 0.0f && sphere.AngularVelocity == V(0.0f, 0.0f, 0.0f) && !sphere.IsKinematic, "a sphere at rest, not kinematic");
        C.Check(sphere.Position == V(2.0f, 2.0f, 2.0f) && sphere.Velocity == V(1.0f, 0.0f, 0.0f) && sphere.Radius == 0.5f, "a sphere where it was made");
        uint a = world.AddSphere(sphere);
        sphere.Position = V(5.0f, 5.0f, 5.0f);
        sphere.Velocity = V(-1.0f, 0.5f, 0.25f);
        uint b = world.AddSphere(sphere);
        C.Check(a == 0 && b == 1, "ids from 0");

        // Each rule of AddSphere: refused, nothing added.
        Sphere bad = sphere;
        bad.Position = V(5.0f, 5.0f, 9.8f);
        C.Raises<ArgumentException>(() => world.AddSphere(bad), "does not fit inside the world's bounds", "a sphere sticking out of the lid");
        bad.Position = V(5.0f, float.NaN, 5.0f);
        C.Raises<ArgumentException>(() => world.AddSphere(bad), "sphere position must be finite", "a NaN position");
        bad = sphere;
        bad.Velocity = V(0.0f, 0.0f, float.PositiveInfinity);
        C.Raises<ArgumentException>(() => world.AddSphere(bad), "sphere velocity", "an infinite velocity");
        bad = sphere;
        bad.Radius = -0.5f;
        C.Raises<ArgumentException>(() => world.AddSphere(bad), "sphere radius must be greater than 0", "a negative radius");
        bad.Radius = float.NaN;
        C.Raises<ArgumentException>(() => world.AddSphere(bad), "radius", "a NaN radius");
        bad = sphere;
        bad.Mass = 0.0f;
        C.Raises<ArgumentException>(() => world.AddSphere(bad), "sphere mass", "a zero mass");
        bad = sphere;
        bad.Restitution = 1.5f;
        C.Raises<ArgumentException>(() => world.AddSphere(bad), "sphere restitution must be at most 1", "a restitution above 1");
        bad = sphere;
        bad.Friction = -0.1f;
        C.Raises<ArgumentException>(() => world.AddSphere(bad), "sphere friction", "a negative friction");
        bad = sphere;
        bad.AngularVelocity = V(float.NaN, 0.0f, 0.0f);
        C.Raises<ArgumentException>(() => world.AddSphere(bad), "angular velocity", "a NaN angular velocity");
        C.Check(world.SphereCount == 2, "no sphere added by the refused calls");
        Sphere kinematic = Sphere.Kinematic(V(-3.0f, 5.0f, 5.0f), V(1.0f, 0.0f, 0.0f), 1.0f);
        C.Check(float.IsPositiveInfinity(kinematic.Mass) && kinematic.IsKinematic && kinematic.Position.X == -3.0f, "a kinematic sphere");

        // AddSpheres is all or nothing, and names the first refused sphere.
        Sphere[] several = { sphere, sphere, sphere };
        several[0].Position = V(7.0f, 7.0f, 7.0f);
        several[1].Radius = -1.0f;
        several[2].Position = V(3.0f, 7.0f, 3.0f);
        C.Raises<ArgumentException>(() => world.AddSpheres(several), "sphere 1: sphere radius", "a bad sphere among several");
        C.Raises<ArgumentNullException>(() => world.AddSpheres(null), "spheres", "no spheres");
        C.Check(world.AddSpheres(new Sphere[0]).Length == 0, "no spheres to add");
        C.Check(world.SphereCount == 2, "none of the several added");

        // From here the world's two spheres must not change under refused calls.
        Sphere[] saved = world.GetSpheres();
        C.Check(saved.Length == 2 && Same(saved[1], world.GetSphere(b)) && Same(saved[0], world.GetSphere(a)), "GetSpheres and GetSphere agree");

        // ----- unknown ids -----
        C.Raises<KeyNotFoundException>(() => world.GetSphere(99), "unknown sphere id 99", "an unknown id");
        C.Raises<KeyNotFoundException>(() => world.GetSpherePosition(2), "2", "the position of an unknown sphere");
        C.Raises<KeyNotFoundException>(() => world.GetSphereVelocity(2), "2", "the velocity of an unknown sphere");
        C.Raises<KeyNotFoundException>(() => world.GetSphereAngularVelocity(2), "2", "the spin of an unknown sphere");
        C.Raises<KeyNotFoundException>(() => world.SetSpherePosition(99, V(1.0f, 1.0f, 1.0f)), "99", "moving an unknown sphere");
        C.Raises<KeyNotFoundException>(() => world.SetSphereVelocity(99, V(1.0f, 1.0f, 1.0f)), "99", "steering an unknown sphere");
        C.Raises<KeyNotFoundException>(() => world.SetSphereAngularVelocity(99, V(1.0f, 1.0f, 1.0f)), "99", "spinning an unknown sphere");
        C.Raises<KeyNotFoundException>(() => world.ApplyImpulse(99, V(1.0f, 1.0f, 1.0f)), "99", "pushing an unknown sphere");
        C.Raises<KeyNotFoundException>(() => world.SetSphere(99, sphere), "99", "replacing an unknown sphere");
        C.Raises<KeyNotFoundException>(() => world.RemoveSphere(99), "99", "removing an unknown sphere");
        C.Raises<KeyNotFoundException>(() => world.RemoveSpheres(new uint[] { a, 99 }), "unknown sphere id 99", "removing a live and an unknown sphere");
        C.Raises<ArgumentNullException>(() => world.RemoveSpheres(null), "ids", "no ids to remove");
        C.Check(!world.ContainsSphere(99) && world.ContainsSphere(a) && world.ContainsSphere(b), "spheres 0 and 1 are there, 99 is not");
        C.Check(Unchanged(world, saved), "nothing changed by the unknown ids");

        // ----- setters refuse what AddSphere refuses -----
        bad = sphere;
        bad.Restitution = -0.5f;
        C.Raises<ArgumentException>(() => world.SetSphere(b, bad), "restitution", "a negative restitution");
        C.Raises<ArgumentException>(() => world.SetSpherePosition(b, V(0.1f, 5.0f, 5.0f)), "does not fit inside the world's bounds", "moving a sphere out of the box");
        C.Raises<ArgumentException>(() => world.SetSpherePosition(b, V(5.0f, 5.0f, float.NaN)), "finite", "a NaN position");
        C.Raises<ArgumentException>(() => world.SetSphereVelocity(b, V(float.NaN, 0.0f, 0.0f)), "finite", "a NaN velocity");
        C.Raises<ArgumentException>(() => world.SetSphereAngularVelocity(b, V(0.0f, float.PositiveInfinity, 0.0f)), "angular velocity", "an infinite spin");
        C.Raises<ArgumentException>(() => world.ApplyImpulse(b, V(0.0f, 0.0f, float.NaN)), "impulse must be finite", "a NaN impulse");
        C.Raises<ArgumentException>(() => world.ApplyImpulse(b, V(3e38f, 0.0f, 0.0f)), "after the impulse", "an impulse too large");
        C.Raises<ArgumentException>(() => world.SetPositions(new Vec3[] { V(5.0f, 5.0f, 5.0f) }), "equal to the number of spheres", "one position for two spheres");
        C.Raises<ArgumentException>(() => world.SetPositions(new Vec3[] { V(3.0f, 3.0f, 3.0f), V(3.0f, 3.0f, 9.9f) }), "does not fit", "the second does not fit: neither moves");
        C.Raises<ArgumentException>(() => world.SetVelocities(new Vec3[] { V(1.0f, 1.0f, 1.0f), V(float.NaN, 0.0f, 0.0f) }), "finite", "a NaN among the velocities");
        C.Raises<ArgumentNullException>(() => world.SetVelocities(null), "values", "no velocities");
        C.Check(Unchanged(world, saved), "nothing changed by the refused setters");

        // Accepted ones read back.
        world.SetSpherePosition(b, V(5.0f, 6.0f, 7.0f));
        C.Check(world.GetSpherePosition(b) == V(5.0f, 6.0f, 7.0f), "a position set reads back");
        world.SetSphereVelocity(b, V(0.5f, -0.25f, 2.0f));
        C.Check(world.GetSphereVelocity(b) == V(0.5f, -0.25f, 2.0f), "a velocity set reads back");
        world.SetSphereAngularVelocity(b, V(1.0f, 2.0f, 3.0f));
        C.Check(world.GetSphereAngularVelocity(b) == V(1.0f, 2.0f, 3.0f) && world.GetSphere(b).Mass == saved[1].Mass, "a spin set reads back, the rest kept");
        world.ApplyImpulse(b, V(0.0f, 0.0f, -saved[1].Mass));
        C.Check(world.GetSphereVelocity(b) == V(0.5f, -0.25f, 1.0f), "an impulse of one mass takes 1 m/s off");
        Sphere replaced = world.GetSphere(b);
        replaced.Friction = 0.25f;
        replaced.RollingResistance = 0.125f;
        world.SetSphere(b, replaced);
        C.Check(Same(world.GetSphere(b), replaced), "a whole sphere set reads back");
        world.SetPositions(new Vec3[] { V(3.0f, 3.0f, 3.0f), V(6.0f, 6.0f, 6.0f) });
        C.Check(world.GetSpherePosition(a) == V(3.0f, 3.0f, 3.0f) && world.GetSpherePosition(b) == V(6.0f, 6.0f, 6.0f), "positions set at once");
        world.SetVelocities(new Vec3[] { V(1.0f, 2.0f, 3.0f), V(-1.0f, -2.0f, -3.0f) });
        C.Check(world.GetSphereVelocity(a) == V(1.0f, 2.0f, 3.0f) && world.GetSphereVelocity(b) == V(-1.0f, -2.0f, -3.0f), "velocities set at once");
        world.SetSphere(a, saved[0]);
        world.SetSphere(b, saved[1]);
        C.Check(Unchanged(world, saved), "and back again");

        // ----- static triangles and meshes -----
        C.Raises<ArgumentException>(() => world.AddTriangle(V(0.0f, 0.0f, 1.0f), V(1.0f, 1.0f, 1.0f), V(2.0f, 2.0f, 1.0f)), "triangle 0 has no area", "corners in a line");
        C.Raises<ArgumentException>(() => world.AddTriangle(V(0.0f, 0.0f, 1.0f), V(0.0f, 0.0f, 1.0f), V(2.0f, 0.0f, 1.0f)), "no area", "a repeated corner");
        C.Raises<ArgumentException>(() => world.AddTriangle(V(0.0f, 0.0f, float.NaN), V(1.0f, 0.0f, 1.0f), V(0.0f, 1.0f, 1.0f)), "triangle corner must be finite", "a NaN corner");
        C.Check(world.TriangleCount == 0, "no triangle added by the refused calls");
        Vec3[] vertices = { V(0.0f, 0.0f, 1.0f), V(10.0f, 0.0f, 1.0f), V(10.0f, 10.0f, 1.0f), V(0.0f, 10.0f, 1.0f) };
        uint[] indices = { 0, 1, 2, 0, 2, 4 };
        C.Raises<ArgumentException>(() => world.AddMesh(vertices, indices), "triangle 1 names vertex 4, but the mesh has 4 vertices", "an index beyond the vertices");
        indices[5] = 2;
        C.Raises<ArgumentException>(() => world.AddMesh(vertices, indices), "triangle 1 has no area", "a triangle without area: the first not added either");
        indices[5] = 3;
        vertices[3].Y = float.PositiveInfinity;
        C.Raises<ArgumentException>(() => world.AddMesh(vertices, indices), "mesh vertex must be finite", "an infinite vertex");
        vertices[3].Y = 10.0f;
        C.Raises<ArgumentNullException>(() => world.AddMesh(null, indices), "vertices", "no vertices");
        C.Raises<ArgumentNullException>(() => world.AddMesh(vertices, null), "indices", "no indices");
        C.Raises<ArgumentException>(() => world.AddMesh(vertices, new uint[] { 0, 1, 2, 3 }), "triples", "indices not in triples");
        C.Check(world.TriangleCount == 0, "no mesh triangle added by the refused calls");
        world.AddMesh(vertices, indices);
        Triangle[] triangles = world.GetTriangles();
        C.Check(world.TriangleCount == 2 && triangles.Length == 2, "a mesh of two triangles");
        C.Check(triangles[1].A == V(0.0f, 0.0f, 1.0f) && triangles[1].B == V(10.0f, 10.0f, 1.0f) && triangles[1].C == V(0.0f, 10.0f, 1.0f), "the second triangle's corners in order");
        world.AddTriangle(V(1.0f, 1.0f, 9.0f), V(2.0f, 1.0f, 9.0f), V(1.0f, 2.0f, 9.5f));
        C.Check(world.TriangleCount == 3 && world.GetTriangles()[2].C == V(1.0f, 2.0f, 9.5f), "a single triangle after the mesh");

        // ----- short buffers -----
        uint[] shortIds = { 77 };
        C.Raises<ArgumentException>(() => world.CopySphereIds(shortIds), "the buffer has room for 1, the call needs 2", "ids into a short buffer");
        C.Check(shortIds[0] == 77, "the short id buffer left alone");
        Vec3[] one = { V(42.0f, 42.0f, 42.0f) };
        C.Raises<ArgumentException>(() => world.CopyPositions(one), "needs 2", "positions into a short buffer");
        C.Raises<ArgumentException>(() => world.CopyVelocities(one), "needs 2", "velocities into a short buffer");
        C.Raises<ArgumentException>(() => world.CopyAngularVelocities(one), "needs 2", "spins into a short buffer");
        C.Check(one[0].X == 42.0f, "the short vector buffer left alone");
        float[] number = { -1.0f };
        C.Raises<ArgumentException>(() => world.CopyRadii(number), "needs 2", "radii into a short buffer");
        C.Raises<ArgumentException>(() => world.CopyMasses(number), "needs 2", "masses into a short buffer");
        C.Check(number[0] == -1.0f, "the short float buffer left alone");
        Sphere[] oneSphere = { replaced };
        C.Raises<ArgumentException>(() => world.CopySpheres(oneSphere), "needs 2", "spheres into a short buffer");
        C.Check(Same(oneSphere[0], replaced), "the short sphere buffer left alone");
        C.Raises<ArgumentNullException>(() => world.CopyPositions(null), "buffer", "a null buffer");
        uint[] ids = world.GetSphereIds();
        C.Check(ids.Length == 2 && ids[0] == a && ids[1] == b, "the ids in the order added");
        float[] radii = world.GetRadii();
        float[] masses = world.GetMasses();
        C.Check(radii.Length == 2 && radii[0] == 0.5f && masses[1] == saved[1].Mass, "radii and masses");
        C.Check(world.GetPositions()[1] == saved[1].Position && world.GetVelocities()[1] == saved[1].Velocity, "positions and velocities in id order");
        C.Check(world.GetAngularVelocities()[1] == saved[1].AngularVelocity, "spins in id order");

        // ----- settings -----
        C.Raises<ArgumentException>(() => world.Gravity = V(0.0f, float.NaN, 0.0f), "gravity must be finite", "a NaN gravity");
        C.Check(world.Gravity == V(0.0f, 0.0f, 0.0f), "no gravity yet");
        world.Gravity = V(0.5f, -0.25f, -9.81f);
        C.Check(world.Gravity == V(0.5f, -0.25f, -9.81f), "gravity reads back");
        world.Gravity = V(0.0f, 0.0f, 0.0f);
        C.Raises<ArgumentException>(() => world.Substeps = 0, "substeps must be between 1 and 64", "no substeps");
        C.Raises<ArgumentException>(() => world.Substeps = 65, "substeps must be between 1 and 64", "65 substeps");
        C.Raises<ArgumentException>(() => world.Substeps = -2, "substeps", "-2 substeps");
        C.Check(world.Substeps == 1, "one substep kept");
        world.Substeps = 3;
        C.Check(world.Substeps == 3, "substeps read back");
        world.Substeps = 1;
        C.Raises<ArgumentException>(() => world.SolverIterations = 0, "iterations", "no solver iterations");
        C.Raises<ArgumentException>(() => world.SolverIterations = 1001, "iterations", "1001 solver iterations");
        C.Check(world.SolverIterations == 10, "ten solver iterations kept");
        world.SolverIterations = 30;
        C.Check(world.SolverIterations == 30, "solver iterations read back");
        world.SolverIterations = 10;
        C.Raises<ArgumentException>(() => world.LinearDamping = -1.0f, "damping", "a negative damping");
        C.Raises<ArgumentException>(() => world.LinearDamping = float.NaN, "damping", "a NaN damping");
        C.Check(world.LinearDamping == 0.0f, "no damping kept");
        world.LinearDamping = 0.25f;
        C.Check(world.LinearDamping == 0.25f, "damping reads back");
        world.LinearDamping = 0.0f;
        C.Raises<ArgumentException>(() => world.BroadPhase = "quadtree", "unknown 3-D broad phase", "switching to the planar quadtree");
        C.Raises<ArgumentNullException>(() => world.BroadPhase = null, "value", "switching to no broad phase");
        C.Check(world.BroadPhase == "uniform-grid", "the broad phase kept");
        foreach (string name in names)
        {
            world.BroadPhase = name;
            C.Check(world.BroadPhase == name, "switched to " + name);
        }
        world.BroadPhase = "uniform-grid";

        // ----- a bad dt: refused, nothing moves -----
        C.Check(!world.RecordContacts, "no contact records by default");
        world.RecordContacts = true;
        C.Check(world.RecordContacts, "contact records on");
        C.Raises<ArgumentException>(() => world.Step(0.0f), "dt must be finite and greater than 0, got 0", "a zero step");
        C.Raises<ArgumentException>(() => world.Step(-0.01f), "dt", "a negative step");
        C.Raises<ArgumentException>(() => world.Step(float.NaN), "dt", "a NaN step");
        C.Raises<ArgumentException>(() => world.Step(float.PositiveInfinity), "dt", "an infinite step");
        C.Check(Unchanged(world, saved), "nothing moved by the refused steps");
        world.Step(0.01f);
        C.Check(!Unchanged(world, saved), "a good step moves them");

        // Sphere 0 thrown down onto the floor mesh: a contact with triangle 0 or 1.
        world.SetSphereVelocity(a, V(0.0f, 0.0f, -20.0f));
        world.Step(0.1f);
        Contact3D[] contacts = world.GetContacts();
        C.Check(contacts.Length == 1 && world.ContactCount == 1, "one contact: " + contacts.Length);
        C.Check(contacts.Length == 1 && contacts[0].Sphere == a && contacts[0].Partner.Kind == ColliderKind3D.Triangle && contacts[0].Partner.Index <= 1,
                "sphere 0 hit the floor mesh");
        C.Check(contacts.Length == 1 && (contacts[0].Normal - V(0.0f, 0.0f, -1.0f)).Length() < 1e-6f && contacts[0].Impulse.Z > 0.0f && contacts[0].Time > 0.0f,
                "the floor pushed it up, at its time of impact: normal " + (contacts.Length == 1 ? contacts[0].Normal + " impulse " + contacts[0].Impulse + " time " + contacts[0].Time : ""));
        C.Check(world.GetSphereVelocity(a).Z > 0.0f, "sphere 0 bounced up");
        StepStats stats = world.LastStepStats;
        C.Check(stats.Contacts == 1 && stats.TimeOfImpactEvents == 1, "one contact found at its time of impact: " + stats.Contacts + ", " + stats.TimeOfImpactEvents);
        Contact3D[] room = new Contact3D[2];
        room[1].Sphere = 4242;
        C.Check(world.CopyContacts(room) == 1 && room[0].Sphere == a && room[1].Sphere == 4242, "contacts copied, the rest left alone");
        C.Raises<ArgumentException>(() => world.CopyContacts(new Contact3D[0]), "needs 1", "contacts into an empty buffer");
        Sphere[] beforeBadStep = world.GetSpheres();
        C.Raises<ArgumentException>(() => world.Step(-1.0f), "dt", "a negative step after a good one");
        C.Check(Unchanged(world, beforeBadStep) && world.ContactCount == 1, "the state and the contacts kept");
        world.SetContinuousCollision(true);
        world.SetVelocityCompensation(true);

        // ----- queries -----
        RayHit3D hit;
        C.Raises<ArgumentException>(() => world.CastRay(V(5.0f, 5.0f, 5.0f), V(0.0f, 0.0f, 0.0f), 10.0f, out hit), "ray direction must be non-zero", "a ray without a direction");
        C.Raises<ArgumentException>(() => world.CastRay(V(5.0f, 5.0f, 5.0f), V(1.0f, 0.0f, 0.0f), -1.0f, out hit), "", "a negative ray length");
        C.Raises<ArgumentException>(() => world.CastRay(V(float.NaN, 5.0f, 5.0f), V(1.0f, 0.0f, 0.0f), 1.0f, out hit), "", "a NaN origin");
        // Straight down from above the floor mesh (z = 1): a triangle, 2 m away.
        C.Check(world.CastRay(V(8.0f, 2.0f, 3.0f), V(0.0f, 0.0f, -5.0f), float.PositiveInfinity, out hit), "a ray down meets the floor mesh");
        C.Check(hit.Collider.Kind == ColliderKind3D.Triangle && hit.Collider.Index == 0 && hit.Distance == 2.0f, "triangle 0, 2 m away");
        C.Check(hit.Normal == V(0.0f, 0.0f, 1.0f) && hit.Point == V(8.0f, 2.0f, 1.0f), "facing up, where the ray met it");
        C.Check(world.CastRay(V(8.0f, 8.0f, 5.0f), V(1.0f, 0.0f, 0.0f), 10.0f, out hit) && hit.Collider.Kind == ColliderKind3D.Wall && hit.Collider.Wall == BoxWall3D.MaxX,
                "a ray along x meets the wall at max x");
        C.Check(Math.Abs(hit.Distance - 2.0f) < 1e-5f && hit.Normal == V(-1.0f, 0.0f, 0.0f), "2 m away, facing back");
        C.Check(!world.CastRay(V(8.0f, 8.0f, 5.0f), V(1.0f, 0.0f, 0.0f), 1.0f, out hit), "nothing within 1 m");
        Vec3 bNow = world.GetSpherePosition(b);
        C.Check(world.CastRay(bNow + V(0.0f, -3.0f, 0.0f), V(0.0f, 1.0f, 0.0f), 10.0f, out hit) && hit.Collider.Kind == ColliderKind3D.Sphere && hit.Collider.Index == b,
                "a ray along y meets sphere 1");
        C.Check(Math.Abs(hit.Distance - 2.5f) < 1e-5f, "at its surface, 2.5 m away: " + hit.Distance);
        C.Raises<ArgumentException>(() => world.GetSpheresInBall(V(5.0f, 5.0f, 5.0f), -1.0f), "query radius", "a negative query radius");
        uint[] found = world.GetSpheresInBall(bNow, 0.0f);
        C.Check(found.Length == 1 && found[0] == b, "sphere 1 contains its centre");
        C.Check(world.GetSpheresInBall(V(9.0f, 9.0f, 9.0f), 0.1f).Length == 0, "no sphere in the far corner");
        found = world.GetSpheresInBall(bNow + V(0.0f, 0.0f, 1.0f), 0.6f);
        C.Check(found.Length == 1 && found[0] == b, "a ball of 0.6 m 1 m above sphere 1's centre overlaps it");
        C.Check(world.GetSpheresInBall(bNow + V(0.0f, 0.0f, 1.0f), 0.4f).Length == 0, "one of 0.4 m does not");
        uint at = 7;
        C.Raises<ArgumentException>(() => world.TryGetSphereAt(V(float.PositiveInfinity, 5.0f, 5.0f), out at), "", "an infinite point");
        C.Check(!world.TryGetSphereAt(V(0.5f, 9.5f, 9.5f), out at) && at == 0, "no sphere there");
        C.Check(world.TryGetSphereAt(bNow + V(0.0f, 0.0f, 0.25f), out at) && at == b, "sphere 1 is there");

        // ----- removing, and ids not reused -----
        world.RemoveSphere(a);
        C.Raises<KeyNotFoundException>(() => world.RemoveSphere(a), "unknown sphere id 0", "removing twice");
        uint c = world.AddSphere(several[2]);
        C.Check(c == 2, "a removed id is not handed out again");
        ids = world.GetSphereIds();
        C.Check(ids.Length == 2 && ids[0] == b && ids[1] == c && Same(world.GetSphere(c), several[2]), "sphere 1 then sphere 2");
        world.RemoveSpheres(new uint[] { b, c, b });
        C.Check(world.SphereCount == 0, "repeated ids removed once");

        world.Dispose();
        C.Raises<ObjectDisposedException>(() => world.Step(0.1f), "BallWorld3D", "a disposed world");
        C.Raises<ObjectDisposedException>(() => world.GetSpheres(), "BallWorld3D", "the spheres of a disposed world");
        world.Dispose();

        // ----- open space: energy and momentum -----
        using (BallWorld3D open = new BallWorld3D(null, "brute-force"))
        {
            C.Check(!open.Bounds.HasValue, "open space has no bounds");
            Sphere ball = new Sphere(V(0.0f, 0.0f, 0.0f), V(1.0f, -2.0f, 3.0f), 0.5f);
            ball.Mass = 2.0f;
            open.AddSphere(ball);
            C.Check(open.KineticEnergy == 14.0, "½ m v² = 14 J: " + open.KineticEnergy);
            C.Check(open.Momentum.X == 2.0 && open.Momentum.Y == -4.0 && open.Momentum.Z == 6.0, "m v = (2, -4, 6)");
            Sphere spinning = new Sphere(V(10.0f, 0.0f, 0.0f), V(0.0f, 0.0f, 0.0f), 1.0f);
            spinning.Mass = 5.0f;
            spinning.AngularVelocity = V(0.0f, 0.0f, 2.0f);
            open.AddSphere(spinning);
            C.Check(open.KineticEnergy == 18.0, "with a ball of I = 2/5 m r² spinning at 2 rad/s: 18 J, got " + open.KineticEnergy);
            open.AddSphere(Sphere.Kinematic(V(-10.0f, 0.0f, 0.0f), V(5.0f, 0.0f, 0.0f), 1.0f));
            C.Check(open.Momentum.X == 2.0 && open.KineticEnergy == 18.0, "a kinematic sphere counts for neither");

            // A fast sphere at a thin plate: stopped at its time of impact, or tunnelling through
            // it with continuous collision off.
            open.RemoveSpheres(new uint[] { 1, 2 });
            open.AddTriangle(V(10.0f, -5.0f, -5.0f), V(10.0f, 5.0f, -5.0f), V(10.0f, 0.0f, 5.0f));
            open.SetSphereVelocity(0, V(1000.0f, 0.0f, 0.0f));
            open.Step(0.1f);
            C.Check(open.GetSpherePosition(0).X < 10.0f, "continuous collision stops the sphere at the plate");
            open.SetSpherePosition(0, V(0.0f, 0.0f, 0.0f));
            open.SetSphereVelocity(0, V(1000.0f, 0.0f, 0.0f));
            open.SetContinuousCollision(false);
            open.Step(0.1f);
            C.Check(open.GetSpherePosition(0).X > 10.0f, "without it the sphere tunnels");
        }

        return C.Finish();
    }
}
