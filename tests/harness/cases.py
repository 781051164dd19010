# The named-case pattern the Python test harnesses share: a case is a
# function registered under its name (each is its own ctest test, chosen on
# the command line), and a failed expectation raises Failure with a message
# that says what was wrong. stdlib only.
CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)
