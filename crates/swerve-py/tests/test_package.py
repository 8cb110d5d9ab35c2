"""The installed package: type stubs that match the module, py.typed, the drop-in modules'
method lists (Python-RVO2's from its `src/rvo2.pyx`)."""

import ast
import importlib.resources
import inspect

import swerve
import swerve._swerve
import swerve.pyrvo
import swerve.rvo2

# Python-RVO2's PyRVOSimulator methods (sybrenstuvel/Python-RVO2, src/rvo2.pyx).
PYTHON_RVO2_METHODS = """
addAgent addObstacle clearObstacle removeObstacle doStep getAgentAgentNeighbor
getAgentMaxNeighbors getAgentMaxSpeed getAgentNeighborDist getAgentNumAgentNeighbors
getAgentNumObstacleNeighbors getAgentNumORCALines getAgentObstacleNeighbor getAgentORCALine
getAgentPosition getAgentPrefVelocity getAgentRadius getAgentTimeHorizon
getAgentTimeHorizonObst getAgentVelocity getGlobalTime getNumAgents getNumObstacleVertices
getObstacleVertex getNextObstacleVertexNo getPrevObstacleVertexNo getTimeStep
processObstacles queryVisibility setAgentDefaults setAgentMaxNeighbors setAgentMaxSpeed
setAgentNeighborDist setAgentPosition setAgentPrefVelocity setAgentRadius
setAgentTimeHorizon setAgentTimeHorizonObst setAgentVelocity setTimeStep
""".split()


def public(cls):
    return {name for name in dir(cls) if not name.startswith("_")}


def test_every_python_rvo2_method_exists():
    assert set(PYTHON_RVO2_METHODS) - public(swerve.rvo2.PyRVOSimulator) == set()
    params = inspect.signature(swerve.rvo2.PyRVOSimulator.addAgent).parameters
    assert list(params)[1:] == [
        "pos", "neighborDist", "maxNeighbors", "timeHorizon", "timeHorizonObst", "radius", "maxSpeed", "velocity",
    ]


def test_stubs_and_py_typed_are_installed_and_match():
    files = importlib.resources.files("swerve")
    assert files.joinpath("py.typed").is_file()
    stub = files.joinpath("_swerve.pyi").read_text()
    tree = ast.parse(stub)
    stubbed = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
            names |= {item.target.id for item in node.body if isinstance(item, ast.AnnAssign)}
            stubbed[node.name] = names
    for name in ("Simulator", "PyRVOSimulator", "RVOSimulator", "Vector2", "SwerveError", "InvalidValueError",
                 "UnknownIdError", "World3d", "Simulator3d"):
        assert name in stubbed, name
        runtime = getattr(swerve._swerve, name)
        missing = {m for m in public(runtime) if m not in stubbed[name]} - {"args", "with_traceback", "add_note"}
        assert missing == set(), f"{name}: not in the stubs: {missing}"
        extra = {m for m in stubbed[name] if not m.startswith("_")} - public(runtime)
        assert extra == set(), f"{name}: in the stubs but not in the module: {extra}"
