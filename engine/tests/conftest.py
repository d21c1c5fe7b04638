from engine.tests.examples import load_profile

load_profile()
