print("touchtracker: under construction")
