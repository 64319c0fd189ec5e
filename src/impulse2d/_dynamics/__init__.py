"""Private dynamics: integration, contact persistence, the constraint solvers and the step script."""
