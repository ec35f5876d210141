import ModelMapper
print("Benchmarks: placeholder")
